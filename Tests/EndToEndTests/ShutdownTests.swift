import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Services stay responsive and stop when asked (issue 12, the protocol's edges): every loop
    /// honours shutdown, and a long refresh does not hold up the rates service's other requests.
    @Suite struct ShutdownTests {
        /// A graceful stop folds the write-ahead log into the database: otherwise the next start
        /// reads the whole log again to rebuild its index (D227). It leaves one frame, so that the
        /// next start has no log to create (D231).
        @Test func aGracefulStopLeavesOneFrameOfWriteAheadLogToReadAtTheNextStart() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))
            _ = try client.call(TransactionImportRequest(importId: "some", items: (0..<2_000).map { index in
                TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", notes: "\(index)", date: "2026-11-01"))
            }))
            client.close()
            let log = URL(fileURLWithPath: harness.home.databaseURL.path + "-wal")
            let size = { ((try? FileManager.default.attributesOfItem(atPath: log.path))?[.size] as? Int) ?? 0 }
            #expect(size() > 0, "the import left nothing in the log to fold in")
            harness.stop(.store)
            // The log's header (32 bytes), then one frame: its header (24) and a page (4,096).
            #expect(size() == 32 + 24 + 4_096)
            try harness.start(.store)
            #expect(try harness.client().call(TransactionListRequest(limit: 1)).total == 2_000)
        }

        @Test func theAlertsServiceStopsPromptlyInTheMiddleOfACatchUp() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))
            let food = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
            _ = try client.call(BudgetSetRequest(categoryId: food.id, limit: "100000"))
            // Thousands of changes for the alerts service to catch up with, each evaluated.
            for batch in 0..<3 {
                let items = (0..<2_000).map { index in
                    TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", categoryId: food.id, notes: "\(batch)-\(index)", date: Timestamp.today()))
                }
                _ = try client.call(TransactionImportRequest(importId: "many-\(batch)", items: items))
            }
            for index in 0..<1_500 {
                _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", categoryId: food.id, notes: "one-\(index)", date: Timestamp.today()))
            }
            let storeSeq = try #require(harness.status(.store)).lastSeq
            try harness.start(.alerts)
            try harness.waitFor("the alerts service to be catching up") { (harness.status(.alerts)?.lastSeq ?? 0) > 10 }
            #expect((harness.status(.alerts)?.lastSeq ?? storeSeq) < storeSeq, "still behind when it is told to stop")
            let asked = ContinuousClock.now
            harness.stop(.alerts)  // SIGTERM, then waits for the exit
            // It used to go on handling events for 30 s; the bound leaves room for a loaded machine.
            #expect(ContinuousClock.now - asked < .seconds(3), "stopped \(ContinuousClock.now - asked) after SIGTERM")
        }

        /// The alerts service froze 8–10 s after a store restart (one 10 s try per request): now it
        /// retries like every client, and an alert after the restart comes within seconds.
        @Test func theAlertsServiceRecoversQuicklyFromAStoreRestart() throws {
            let harness = try ServiceHarness()
            let ledger = try BudgetedLedger(harness)
            let (client, wallet, food, budget) = (ledger.client, ledger.wallet, ledger.food, ledger.budget)
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "10", categoryId: food.id, date: Timestamp.today()))
            try harness.waitFor("alerts to follow") { harness.status(.alerts)?.lastSeq == harness.status(.store)?.lastSeq }
            harness.stop(.store, signal: SIGKILL)
            try harness.start(.store)
            let committed = ContinuousClock.now
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "50", categoryId: food.id, date: Timestamp.today()))
            try harness.waitFor("the 50 % alert after the restart", seconds: 20) {
                try client.call(AlertListRequest()).alerts.contains { $0.key == "budget:\(budget.id):\(Timestamp.today().prefix(7)):50" }
            }
            #expect(ContinuousClock.now - committed < .seconds(5), "the alert came \(ContinuousClock.now - committed) after the write")
        }

        @Test func theRatesServiceAnswersDuringARefreshAndStopsPromptly() throws {
            let harness = try ServiceHarness()
            let server = try ProviderServer()
            let providers: [[String: Any]] = [["name": "slow", "format": "ecb-daily-xml", "url": server.url("slow/20"), "profile": "official", "timeoutSeconds": 30]]
            try harness.configureProviders(providers)
            try harness.start(.store)
            try harness.setUp()
            try harness.start(.rates)
            try harness.waitFor("the slow fetch to start") { !server.requestTimes(containing: "slow").isEmpty }
            // Another request is answered at once, not after the fetch.
            let rates = harness.client(.rates, timeoutMilliseconds: 3_000, attempts: 1)
            let started = ContinuousClock.now
            do throws(ClientError) {
                _ = try rates.call(WalletListRequest())
                Issue.record("the rates service does not handle wallet.list")
            } catch {
                #expect(error.errorCode == .unknownType)
            }
            // It used to wait for the fetch (20 s here).
            #expect(ContinuousClock.now - started < .milliseconds(1_500))
            let asked = ContinuousClock.now
            harness.stop(.rates)
            // It used to take 8 s.
            #expect(ContinuousClock.now - asked < .seconds(3), "stopped \(ContinuousClock.now - asked) after SIGTERM during a fetch")
        }
    }
}
