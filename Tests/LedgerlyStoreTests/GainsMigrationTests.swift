import Foundation
import GRDB
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// `v12-gains-by-date` on a database written before it: every realisation gets its sale's base
/// currency, so `invest.gains` (which no longer joins the trades for it) sums as before.
@Suite struct GainsMigrationTests {
    @Test func realisationsTakeTheirSalesBaseCurrency() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gains-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path)
        let migrator = StoreMigrations.migrator()
        try migrator.migrate(queue, upTo: "v10-investments")
        try queue.write { db in
            for (id, base) in [(1, "EUR"), (2, "CHF")] {
                try db.execute(sql: """
                    INSERT INTO invest_accounts (id, name, account_type, base_currency, cost_basis_method, created_at, updated_at)
                    VALUES (?, ?, 'brokerage', ?, 'fifo', 'now', 'now')
                    """, arguments: [id, "Broker \(id)", base])
            }
            try db.execute(sql: "INSERT INTO assets (id, symbol, asset_type, quote_currency, provider, created_at, updated_at) VALUES (1, 'ACME', 'stock', 'USD', 'manual', 'now', 'now')")
            // Two sales (trades 3 and 4, in two base currencies) and a dividend.
            for (id, kind, account, base, amount) in [(3, "sell", 1, "EUR", 1_000), (4, "sell", 2, "CHF", 500), (5, "dividend", 1, "EUR", 7)] {
                try db.execute(sql: """
                    INSERT INTO trades (id, kind, account_id, asset_id, date, currency, amount_base_minor, base_currency, created_at)
                    VALUES (?, ?, ?, 1, '2026-03-10', 'USD', ?, ?, 'now')
                    """, arguments: [id, kind, account, amount, base])
            }
            for (trade, position, account) in [(3, 0, 1), (3, 1, 1), (4, 0, 2)] {
                try db.execute(sql: """
                    INSERT INTO realisations (trade_id, position, account_id, asset_id, date, lot_id, acquired, quantity, cost_minor, proceeds_minor,
                                              cost_base_minor, proceeds_base_minor, currency_effect_minor)
                    VALUES (?, ?, ?, 1, '2026-03-10', 1, '2026-01-10', '1', 100, 150, 90, 140, 2)
                    """, arguments: [trade, position, account])
            }
        }
        try migrator.migrate(queue)
        let bases = try queue.read { db in try String.fetchAll(db, sql: "SELECT base_currency FROM realisations ORDER BY trade_id, position") }
        #expect(bases == ["EUR", "EUR", "CHF"])
        let gains = try queue.read { db in try GainsReader.read(GainsRequest(year: 2026, limit: 1), db) }
        #expect(gains.saleCount == 2 && gains.sales.map(\.tradeId) == [3] && gains.next == "2026-03-10/3")
        #expect(gains.totals.map(\.currency) == ["CHF", "EUR"])
        #expect(gains.totals.map(\.proceedsBase) == ["1.40", "2.80"] && gains.totals.map(\.income) == ["0.00", "0.07"])
    }
}
