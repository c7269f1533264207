import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45 item 6 (D414), for ledgers written before the fix: the lots of an average-cost
    /// account are derived, and migration v28 replays them once, so a pool left a minor unit off
    /// by the old rule comes back to exactly what was bought less what was sold.
    @Suite struct AverageCostReplayTests {
        @Test func theMigrationReplaysAverageCostLotsOnce() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            let account = try client.call(InvestAccountCreateRequest(name: "Pool", costBasisMethod: .average))
            let asset = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "EUR"))
            // The outside check's pool: 47 units for 4,055.89 and 159 for 13,721.01; 101 sold.
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "47", price: "86.2955", date: "2026-01-10"))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "159", price: "86.29566", date: "2026-01-11"))
            _ = try client.call(TradeSellRequest(accountId: account.id, assetId: asset.id, quantity: "101", price: "90", date: "2026-02-01"))
            let held = try client.call(HoldingsRequest()).holdings.first?.cost
            client.close()
            harness.stop(.store)
            // What the old rule left behind: the pool a minor unit over, as if v28 had not run.
            let queue = try DatabaseQueue(path: harness.home.databaseURL.path)
            try queue.write { db in
                try db.execute(sql: "UPDATE lots SET cost_minor = cost_minor + 1, cost_base_minor = cost_base_minor + 1")
                try db.execute(sql: "UPDATE positions SET cost_minor = cost_minor + 1, cost_base_minor = cost_base_minor + 1")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v28-average-cost-replay'")
            }
            try queue.close()
            try harness.start(.store)
            let again = harness.client(timeoutMilliseconds: 10_000)
            defer { again.close() }
            let holding = try #require(try again.call(HoldingsRequest()).holdings.first)
            let sold = try again.call(GainsRequest()).sales.map(\.realised.costBase)
            #expect(holding.cost == held && holding.costBase == held)
            #expect(sold == ["8715.86"], "\(sold)")
            let bought = try again.call(TradeListRequest()).trades.filter { $0.kind == .buy }.compactMap(\.amountBase)
            let total = bought.compactMap { Decimal(string: $0) }.reduce(0, +)
            #expect(total == Decimal(string: "8715.86")! + Decimal(string: holding.costBase)!, "bought \(bought), held \(holding.costBase)")
        }
    }
}
