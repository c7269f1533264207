import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Sync between device homes on one machine through a real PostgreSQL hub (a temporary
    /// cluster), with the real `ledgerly-store`, `ledgerly-sync` and `ledgerly` binaries.
    @Suite struct SyncTests {
        static let passphrase = "correct horse battery staple orbit"

        /// A device: its own home, a store and a sync service (rounds every second).
        final class Device {
            let harness: ServiceHarness
            let passphraseFile: URL

            /// `storeArguments`: a `--clock-offset` when the test has time pass.
            init(setUp: Bool, storeArguments: [String] = []) throws {
                harness = try ServiceHarness()
                try harness.start(.store, extraArguments: storeArguments)
                try harness.start(.sync, extraArguments: ["--round-interval", "1"])
                if setUp { try harness.setUp() }
                passphraseFile = harness.home.root.appendingPathComponent("passphrase.txt")
                try Data((SyncTests.passphrase + "\n").utf8).write(to: passphraseFile)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
            }

            func cli(_ arguments: String...) throws -> ServiceHarness.CommandResult { try harness.cli(arguments) }

            func enable(_ hub: TemporaryPostgres, extra: [String] = []) throws -> ServiceHarness.CommandResult {
                try harness.cli(["sync", "enable", "--url", hub.url(), "--passphrase-file", passphraseFile.path] + extra)
            }

            /// The export with the moment it was written taken out.
            func export() throws -> String {
                let result = try cli("export", "json")
                #expect(result.status == 0, "\(result.stderr)")
                return result.stdout.replacingOccurrences(of: #""exportedAt":"[^"]*","#, with: "", options: .regularExpression)
            }

            func status() throws -> SyncStatusReply {
                try harness.client().call(SyncStatusRequest())
            }

            /// Rounds until nothing waits either way.
            func waitUntilSynced(seconds: Double = 60) throws {
                try harness.waitFor("sync to settle", seconds: seconds) {
                    _ = try? cli("sync", "now")
                    let status = try self.status()
                    // `held`: settled, with changes that wait for their clock (D492).
                    return status.state == "synced" || status.state == "held"
                }
            }

            /// Enables sync here on `hub`, settles (everything pushed), and joins a new device (not
            /// set up) to the ledger; returns it once it has settled.
            func enableAndJoin(_ hub: TemporaryPostgres) throws -> Device {
                let enabled = try enable(hub)
                #expect(enabled.status == 0, "\(enabled.stderr)")
                try waitUntilSynced()
                return try Device.joining(hub)
            }

            /// A new device (not set up) that joins the ledger on `hub`, once it has settled.
            static func joining(_ hub: TemporaryPostgres, storeArguments: [String] = []) throws -> Device {
                let device = try Device(setUp: false, storeArguments: storeArguments)
                let joined = try device.enable(hub)
                #expect(joined.status == 0, "\(joined.stderr)")
                try device.waitUntilSynced()
                return device
            }

            /// Devices back together: each settles twice in turn, so each has what the others
            /// sent after its own first settle.
            static func meet(_ devices: [Device]) throws {
                for _ in 0..<2 {
                    for device in devices { try device.waitUntilSynced() }
                }
            }
        }

        @Test func aJoiningDeviceGetsTheWholeLedgerAndTheHubLearnsNothing() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let client = a.harness.client()
            let cash = try client.call(WalletCreateRequest(name: "Everyday Cash", currency: "EUR", startingBalance: "80"))
            let bank = try client.call(WalletCreateRequest(name: "Girokonto", currency: "EUR", startingBalance: "1200"))
            let food = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
            let dining = try client.call(CategoryCreateRequest(name: "Dining", parentId: food.id))
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "12.34", categoryId: dining.id, notes: "Lunch at Mario's", date: "2026-11-02", tags: ["work"]))
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: bank.id, amount: "75.10", notes: "Weekly shop",
                                                         date: "2026-11-03", splits: [SplitPart(amount: "60", categoryId: food.id), SplitPart(amount: "15.10", categoryId: dining.id)]))
            _ = try client.call(TransferCreateRequest(fromWalletId: bank.id, toWalletId: cash.id, amount: "100", date: "2026-11-04", notes: "ATM"))

            let enabled = try a.enable(hub)
            #expect(enabled.status == 0, "\(enabled.stderr)")
            try a.waitUntilSynced()

            // B joins before setup: the ledger brings its settings.
            let b = try Device(setUp: false)
            let joined = try b.enable(hub)
            #expect(joined.status == 0, "\(joined.stderr)")
            try b.waitUntilSynced()
            #expect(try b.export() == a.export())
            #expect(try b.cli("wallet", "list").stdout.contains("Everyday Cash"))

            // Both directions: a change on B reaches A.
            _ = try b.cli("tx", "add", "--wallet", "Girokonto", "--amount", "3.50", "--category", "Food", "--notes", "Bakery", "--date", "2026-11-05")
            try b.waitUntilSynced()
            try a.waitUntilSynced()
            #expect(try a.export() == b.export())

            // An idle device writes nothing to its store: rounds (every second here) find nothing to
            // send or apply, and report only when something changed or ten minutes have passed.
            let settled = try a.status().lastSuccess
            Thread.sleep(forTimeInterval: 3.5)
            #expect(try a.status().lastSuccess == settled)

            // The hub holds ciphertext only: no name, note or amount appears in any of its tables.
            let dump = try hub.psql("COPY (SELECT * FROM ledgerly_messages) TO STDOUT; COPY (SELECT * FROM ledgerly_ledgers) TO STDOUT;", database: hub.database)
            #expect(dump.count > 1_000)
            for secret in ["Everyday Cash", "Girokonto", "Lunch at Mario", "Weekly shop", "12.34", "75.10", "Dining", "Bakery", "EUR"] {
                #expect(!dump.contains(secret), "the hub's rows contain \(secret)")
                #expect(!dump.contains(Data(secret.utf8).map { String(format: "%02x", $0) }.joined()), "the hub's rows contain \(secret) in hex")
            }

            // A wrong passphrase is refused, and nothing is mixed into that device.
            let c = try Device(setUp: false)
            try Data("not the passphrase\n".utf8).write(to: c.passphraseFile)
            // A passphrase file every user may read is refused before anything is sent.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: c.passphraseFile.path)
            let exposed = try c.enable(hub)
            #expect(exposed.status == 1 && exposed.stderr.contains("chmod o-r"), "\(exposed.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: c.passphraseFile.path)
            let refused = try c.enable(hub)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("passphrase"), "\(refused.stderr)")
            #expect(try c.status().state == "off")
            #expect(!FileManager.default.fileExists(atPath: c.harness.home.root.appendingPathComponent("sync/ledger.key").path))
        }

        @Test func withTheHubDownWorkGoesOnAndArrivesWhenItIsBack() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR"))
            let b = try a.enableAndJoin(hub)

            try hub.stop()
            let added = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "9.99", "--notes", "while the hub was down", "--date", "2026-11-06")
            #expect(added.status == 0, "\(added.stderr)")
            let now = try a.cli("sync", "now")
            // ledgerly-sync answered: not 3 ("a service did not answer") but 5, the hub out of reach (D423).
            #expect(now.status == 5, "\(now.stderr)")
            #expect(now.stderr.contains("sync did not reach the hub"), "\(now.stderr)")
            #expect(try a.status().state == "error")
            #expect(try a.cli("sync", "status").stdout.contains("Last error"))
            #expect(try a.cli("report", "balance").status == 0)

            try hub.start()
            try a.waitUntilSynced()
            try b.waitUntilSynced()
            #expect(try b.cli("tx", "list").stdout.contains("while the hub was down"))
            #expect(try a.export() == b.export())
        }

        /// A and B work apart (the hub is down): edits of different fields of one transaction both
        /// survive, the same field keeps the later edit, a delete beats an edit, and two wallets
        /// named alike are both kept, the one with the greater global id renamed. Afterwards A, B
        /// and a third device that joins have the same ledger (local ids aside: each device
        /// numbered its own new wallet first).
        @Test func devicesApartConvergeByTheDocumentedRules() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let client = a.harness.client()
            let cash = try client.call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let lunch = try client.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "12.00", notes: "Lunch", date: "2026-11-02"))
            let taxi = try client.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "20.00", notes: "Taxi", date: "2026-11-03"))
            let book = try client.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "9.00", notes: "Book", date: "2026-11-04"))
            let b = try a.enableAndJoin(hub)

            try hub.stop()
            #expect(try a.cli("tx", "edit", String(lunch.id), "--notes", "Lunch with Ana").status == 0)
            #expect(try b.cli("tx", "edit", String(lunch.id), "--amount", "14.00").status == 0)
            #expect(try a.cli("tx", "edit", String(taxi.id), "--notes", "Taxi (A)").status == 0)
            Thread.sleep(forTimeInterval: 0.05)
            #expect(try b.cli("tx", "edit", String(taxi.id), "--notes", "Taxi (B, later)").status == 0)
            #expect(try a.cli("tx", "delete", String(book.id)).status == 0)
            #expect(try b.cli("tx", "edit", String(book.id), "--notes", "Book, edited").status == 0)
            #expect(try a.cli("wallet", "add", "Travel", "--currency", "EUR").status == 0)
            #expect(try b.cli("wallet", "add", "Travel", "--currency", "EUR").status == 0)
            try hub.start()

            try Device.meet([a, b])
            let c = try Device.joining(hub)

            let edited = try a.harness.client().call(TransactionGetRequest(id: lunch.id))
            #expect(edited.notes == "Lunch with Ana" && edited.amount == "14.00")
            #expect(try a.harness.client().call(TransactionGetRequest(id: taxi.id)).notes == "Taxi (B, later)")
            #expect(try b.cli("tx", "list").stdout.contains("Book") == false)
            let names = try c.harness.client().call(WalletListRequest()).wallets.map(\.name).sorted()
            #expect(names == ["Cash", "Travel", "Travel (2)"])
            let notices = try a.status().notices + b.status().notices
            #expect(notices.contains { $0.contains("Travel (2)") }, "\(notices)")
            #expect(notices.contains { $0.contains("after it was deleted") }, "\(notices)")
            #expect(try b.cli("sync", "status").stdout.contains("Conflicts settled"))
            let exports = try [a, b, c].map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1] && exports[1] == exports[2])
        }

        /// Work both devices' schedules do while apart ends as one: the same recurring occurrence
        /// posted by A's and B's `ledgerly-alerts` is one transaction, and budgets set for one
        /// category on both are one budget (the later limit); a budget deleted and set again lives.
        @Test func scheduledWorkAndBudgetsMadeApartBecomeOne() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let today = Timestamp.today(at: Date())
            for step in [["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000"],
                         ["category", "add", "Food", "--kind", "expense"],
                         ["category", "add", "Fun", "--kind", "expense"],
                         ["budget", "set", "Fun", "50"],
                         ["recurring", "add", "Rent", "--wallet", "Checking", "--amount", "1200", "--frequency", "monthly", "--start", today]] {
                let result = try a.harness.cli(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
            let b = try a.enableAndJoin(hub)
            #expect(try b.cli("recurring", "list").stdout.contains("Rent"))

            try hub.stop()
            try a.harness.start(.alerts)
            try b.harness.start(.alerts)
            for device in [a, b] {
                try device.harness.waitFor("the rent posted") { try AlertsTests.postedRent(device.harness).count == 1 }
            }
            #expect(try a.cli("budget", "set", "Food", "300").status == 0)
            Thread.sleep(forTimeInterval: 0.05)
            #expect(try b.cli("budget", "set", "Food", "400").status == 0)
            let fun = try #require(try a.harness.client().call(BudgetListRequest()).budgets.first { $0.categoryName == "Fun" })
            #expect(try a.cli("budget", "delete", String(fun.id)).status == 0)
            #expect(try a.cli("budget", "set", "Fun", "75").status == 0)
            try hub.start()

            try Device.meet([a, b])
            let c = try Device.joining(hub)
            for device in [a, b, c] {
                let rent = try AlertsTests.postedRent(device.harness)
                #expect(rent.count == 1 && rent.first?.date == today, "\(rent)")
                let budgets = try device.harness.client().call(BudgetListRequest()).budgets
                #expect(budgets.count == 2)
                #expect(budgets.first { $0.categoryName == "Food" }?.limit == "400.00")
                #expect(budgets.first { $0.categoryName == "Fun" }?.limit == "75.00")
                #expect(try device.harness.client().call(RecurringListRequest()).recurring.first?.nextRun != today)
            }
            let exports = try [a, b, c].map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1] && exports[1] == exports[2], "\(SyncTests.difference(exports))")
        }

        /// A goal's monthly auto-fund, which A's and B's `ledgerly-alerts` both do while apart, is
        /// one contribution and one transfer once they meet; the month's net-worth snapshot both
        /// take is one; a contribution, a revaluation and a liability payment made by hand on one
        /// device arrive on the others.
        @Test func autoFundAndSnapshotsMadeApartBecomeOne() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            for step in [["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000"],
                         ["wallet", "add", "Savings", "--currency", "EUR"],
                         ["goal", "add", "Holiday", "--target", "2400", "--wallet", "Savings", "--auto-fund", "200", "--auto-fund-from", "Checking"],
                         ["goal", "fund", "Holiday", "50"],
                         ["asset", "add", "Flat", "--value", "200000", "--currency", "EUR"],
                         ["liability", "add", "Card", "--balance", "1000", "--currency", "EUR"]] {
                let result = try a.harness.cli(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
            let b = try a.enableAndJoin(hub)
            #expect(try b.harness.client().call(GoalListRequest()).goals.first?.current == "50.00")

            // Apart, 40 days pass: both alerts services fund the goal for each month whose first
            // day has come since it was made, and snapshot each month that ended.
            try hub.stop()
            let offset = ["--clock-offset", String(40 * 86_400)]
            let made = Timestamp.today(at: Date())
            let later = Timestamp.today(at: Date().addingTimeInterval(40 * 86_400))
            var months: [String] = []
            var month = String(made.prefix(7))
            while month <= later.prefix(7) {
                if "\(month)-01" >= made, "\(month)-01" <= later { months.append(month) }
                month = LedgerMonth.next(month)
            }
            #expect(!months.isEmpty)
            for device in [a, b] {
                device.harness.stop(.store)
                try device.harness.start(.store, extraArguments: offset)
                try device.harness.start(.alerts, extraArguments: offset)
            }
            for device in [a, b] {
                try device.harness.waitFor("the auto-fund and the snapshot") {
                    let funded = try device.harness.client().call(GoalListRequest()).goals.first?.current
                    let snapshots = try device.harness.client().call(NetWorthSnapshotListRequest()).snapshots
                    return funded == "\(50 + 200 * months.count).00" && snapshots.contains { $0.month == String(made.prefix(7)) }
                }
            }
            #expect(try b.cli("goal", "fund", "Holiday", "25").status == 0)
            #expect(try a.cli("asset", "revalue", "Flat", "210000").status == 0)
            #expect(try b.cli("liability", "pay", "Card", "300", "--from", "Checking").status == 0)
            try hub.start()

            try Device.meet([a, b])
            let c = try Device.joining(hub, storeArguments: offset)
            let expected = "\(75 + 200 * months.count).00"
            for device in [a, b, c] {
                let client = device.harness.client()
                let goal = try #require(try client.call(GoalListRequest()).goals.first)
                #expect(goal.current == expected)
                let contributions = try client.call(GoalContributionsRequest(id: goal.id)).contributions
                #expect(contributions.compactMap(\.autoFundMonth) == months, "\(contributions)")
                #expect(contributions.allSatisfy { $0.withdrawnAt == nil })
                let savings = try #require(try client.call(WalletListRequest()).wallets.first { $0.name == "Savings" })
                #expect(savings.balance == "\(200 * months.count).00")
                let snapshots = try client.call(NetWorthSnapshotListRequest()).snapshots
                #expect(snapshots.filter { $0.month == String(made.prefix(7)) }.count == 1)
                #expect(try client.call(ManualAssetListRequest()).assets.first?.value == "210000.00")
                #expect(try client.call(LiabilityListRequest()).liabilities.first?.balance == "700.00")
            }
            let exports = try [a, b, c].map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1] && exports[1] == exports[2], "\(SyncTests.difference(exports))")
        }

        /// Investments made apart: both devices sell the whole holding, one dividend each, the same
        /// security added on both. Every trade and its cash arrives everywhere; the sale made later
        /// is kept and marked unapplied on every device, so holdings, gains and exports agree.
        @Test func investmentsMadeApartConvergeWithOneSaleUnapplied() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let client = a.harness.client()
            let bank = try client.call(WalletCreateRequest(name: "Bank", currency: "EUR", startingBalance: "5000"))
            let broker = try client.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR"))
            let fund = try client.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, quoteCurrency: "EUR", provider: .manual))
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: fund.id, quantity: "10", price: "100", fee: "2", date: "2026-11-02", walletId: bank.id))
            let b = try a.enableAndJoin(hub)
            #expect(try b.cli("invest", "holdings").stdout.contains("VWCE"))

            try hub.stop()
            _ = try client.call(TradeSellRequest(accountId: broker.id, assetId: fund.id, quantity: "10", price: "110", date: "2026-11-10", walletId: bank.id))
            Thread.sleep(forTimeInterval: 0.05)
            let clientB = b.harness.client()
            _ = try clientB.call(TradeSellRequest(accountId: broker.id, assetId: fund.id, quantity: "10", price: "120", date: "2026-11-10", walletId: bank.id))
            _ = try clientB.call(TradeIncomeRequest(kind: .dividend, accountId: broker.id, assetId: fund.id, amount: "7.50", date: "2026-11-05", walletId: bank.id))
            _ = try client.call(AssetCreateRequest(symbol: "AAPL", assetType: .stock, quoteCurrency: "USD"))
            _ = try clientB.call(AssetCreateRequest(symbol: "AAPL", assetType: .stock, name: "Apple", quoteCurrency: "USD"))
            try hub.start()

            try Device.meet([a, b])
            let c = try Device.joining(hub)
            for device in [a, b, c] {
                let deviceClient = device.harness.client()
                let trades = try deviceClient.call(TradeListRequest())
                #expect(trades.trades.map(\.kind) == [.buy, .dividend, .sell, .sell], "\(trades.trades)")
                #expect(trades.trades.filter { $0.unapplied != nil }.map(\.price) == ["120"])
                // 5000 - 1002 + 7.50 + 1100 + 1200: both sales' cash moved.
                #expect(try deviceClient.call(WalletListRequest()).wallets.first { $0.name == "Bank" }?.balance == "6305.50")
                #expect(try deviceClient.call(AssetListRequest()).assets.count == 2)
                #expect(try deviceClient.call(GainsRequest(year: 2026)).totals.map(\.gain) == ["98.00"])
                let listed = try device.cli("invest", "trades")
                #expect(listed.stdout.contains("sell (unapplied)") && listed.stdout.contains("1 trade marked unapplied"), "\(listed.stdout)")
            }
            let exports = try [a, b, c].map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1] && exports[1] == exports[2], "\(SyncTests.difference(exports))")
        }

        /// The lines of three exports that are not in all of them, for a failure's message.
        static func difference(_ exports: [String]) -> [String] {
            let sets = exports.map { Set($0.replacingOccurrences(of: "},{", with: "}\n{").split(separator: "\n").map(String.init)) }
            let common = sets.dropFirst().reduce(sets[0]) { $0.intersection($1) }
            return sets.enumerated().flatMap { index, lines in lines.subtracting(common).sorted().map { "device \(index): \($0)" } }
        }

        /// An export with the local ids taken out, and its records in a fixed order without their
        /// separating commas.
        static func withoutLocalIds(_ text: String) -> String {
            let stripped = text.replacingOccurrences(
                of: #""(id|walletId|categoryId|parentId|counterpartyTransactionId|counterpartyWalletId|firstId|lastId|goalId|transactionId|accountId|toAccountId|assetId|tradeId|lotId)":\d+,?"#, with: "", options: .regularExpression)
            // A record's comma says whether another follows it in the export's order, which is by id.
            return stripped.split(separator: "\n").map { $0.hasSuffix(",") ? $0.dropLast() : $0 }.sorted().joined(separator: "\n")
        }

        /// 10,000 transactions go up on enabling; `kill -9` of the sync service in the middle of the
        /// push and of the joining device's pull, and a hub restart, lose and duplicate nothing;
        /// disabling keeps everything and enabling again sends nothing twice.
        @Test func tenThousandTransactionsSurviveKillsAndRestarts() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let client = a.harness.client(timeoutMilliseconds: 30_000)
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))
            for batch in 0..<5 {
                _ = try client.call(TransactionImportRequest(importId: "bulk-\(batch)", items: (0..<2_000).map { index in
                    TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.\(String(format: "%02d", index % 100))", notes: "item \(batch)-\(index)", date: "2026-10-\(String(format: "%02d", 1 + index % 28))"))
                }))
            }
            #expect(try a.enable(hub).status == 0)
            Thread.sleep(forTimeInterval: 0.5)
            a.harness.stop(.sync, signal: SIGKILL)
            try hub.restart()
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try a.waitUntilSynced(seconds: 180)
            // The changes, and one heartbeat after them (D520: the 256-byte bucket, which no change fits).
            let counted = "SELECT count(*) FILTER (WHERE octet_length(sealed) > 300) || '+' || count(*) FILTER (WHERE octet_length(sealed) <= 300) FROM ledgerly_messages"
            let rows = try hub.psql(counted, database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(rows == "\(1 + 3 + 1 + 10_000)+1", "settings, the three starting rate profiles, the wallet and 10,000 transactions, each once, and a heartbeat: \(rows)")

            let b = try Device(setUp: false)
            #expect(try b.enable(hub).status == 0)
            Thread.sleep(forTimeInterval: 0.5)
            b.harness.stop(.sync, signal: SIGKILL)
            try b.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try b.waitUntilSynced(seconds: 180)
            #expect(try b.harness.client().call(TransactionListRequest(limit: 1)).total == 10_000)
            #expect(try b.export() == a.export())

            let disabled = try a.cli("sync", "disable")
            #expect(disabled.status == 0 && disabled.stdout.contains("kept"))
            #expect(try a.harness.client().call(TransactionListRequest(limit: 1)).total == 10_000)
            #expect(try a.enable(hub).status == 0)
            try a.waitUntilSynced()
            let after = try hub.psql(counted, database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(after == rows)
        }
    }
}
