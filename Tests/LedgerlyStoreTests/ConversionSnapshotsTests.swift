import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Rate snapshots stored once and referred to by id (D372). `v22-conversion-snapshots` on a
/// database written before it: every snapshot's text is kept once in `conversion_snapshots`, each
/// transaction refers to its own two, and reading a transaction gives back exactly the text it
/// had. New writes (an import, a single transaction, a transfer) refer to the same rows.
@Suite struct ConversionSnapshotsTests {
    @Test func everySnapshotIsKeptOnceAndEachTransactionReadsItsOwn() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("snapshots-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path)
        let migrator = StoreMigrations.migrator()
        try migrator.migrate(queue, upTo: "v21-ledger-totals-by-category")
        // Two days' base snapshots, shared by rows of the same day; a foreign spending's own
        // conversion whose text is also another row's base snapshot; a row with none.
        let monday = #"{"asOf":"2026-11-02T15:00:00.000Z","base":"USD","rate":"0.9"}"#
        let tuesday = #"{"asOf":"2026-11-03T15:00:00.000Z","base":"USD","rate":"0.91"}"#
        let foreign = #"{"asOf":"2026-11-03T15:00:00.000Z","base":"JPY","rate":"0.006"}"#
        let rows: [(id: Int64, conversion: String?, base: String?)] = [
            (1, nil, monday), (2, nil, monday), (3, nil, tuesday), (4, foreign, tuesday), (5, nil, foreign), (6, nil, nil),
        ]
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO wallets (id, name, currency, type, starting_balance_minor, balance_minor, created_at, updated_at)
                VALUES (1, 'Dollars', 'USD', 'bank', 0, 0, 'now', 'now')
                """)
            for row in rows {
                try db.execute(sql: """
                    INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, conversion, base_conversion, date, created_at, updated_at)
                    VALUES (?, 'expense', 1, 100, 'USD', -100, ?, ?, '2026-11-02', 'now', 'now')
                    """, arguments: [row.id, row.conversion, row.base])
            }
        }
        try migrator.migrate(queue)
        try queue.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT snapshot FROM conversion_snapshots ORDER BY id") == [monday, tuesday, foreign])
            let columns = try db.columns(in: "transactions").map(\.name)
            #expect(!columns.contains("conversion") && !columns.contains("base_conversion"))
            #expect(columns.contains("conversion_id") && columns.contains("base_conversion_id"))
            let read = try Row.fetchAll(db, sql: "SELECT t.id, \(TransactionRow.selection) FROM transactions t \(TransactionRow.selectionJoins) ORDER BY t.id")
            #expect(read.map { $0["id"] as Int64 } == rows.map(\.id))
            for (stored, row) in zip(read, rows) {
                let text = TransactionRow(row: stored)
                #expect(text.conversion == row.conversion && text.baseConversion == row.base, "transaction \(row.id)")
            }
        }
    }

    @Test func writesReferToOneRowPerSnapshot() async throws {
        let store = try await Store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0903", asOf: "2026-03-09T15:00:00Z"))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0950", asOf: "2026-03-10T15:00:00Z"))
        // Three spendings on the 10th and one on the 9th, in one batch; then one more on the 10th
        // on its own, and a transfer out of the dollars that day.
        let imported = try await store.call(TransactionImportRequest(importId: "dollars", items: ["1.00", "2.00", "3.00"].map { amount in
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: amount, date: "2026-03-10"))
        } + [TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "4.00", date: "2026-03-09"))]))
        let single = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "5.00", date: "2026-03-10"))
        let transfer = try await store.call(TransferCreateRequest(fromWalletId: dollars.id, toWalletId: cash.id, amount: "6.00", toAmount: "5.48", date: "2026-03-10"))
        #expect(imported.imported == 4)
        #expect(try store.count("conversion_snapshots") == 2)
        let ids = try await store.database.pool.read { db in
            try Int64?.fetchAll(db, sql: "SELECT base_conversion_id FROM transactions ORDER BY id")
        }
        let tenth = try #require(ids[0])
        #expect(ids == [tenth, tenth, tenth, ids[3], tenth, tenth, nil] && ids[3] != tenth)
        let records = try await store.call(TransactionListRequest(walletId: dollars.id, limit: 10)).transactions
        #expect(records.count == 6)
        #expect(Set(records.filter { $0.date == "2026-03-10" }.compactMap(\.baseConversion?.rate)).count == 1)
        #expect(records.first { $0.id == single.id }?.baseConversion == records.first { $0.id == imported.firstId }?.baseConversion)
        #expect(transfer.outgoing.baseConversion == records.first { $0.id == single.id }?.baseConversion && transfer.incoming.baseConversion == nil)
    }
}
