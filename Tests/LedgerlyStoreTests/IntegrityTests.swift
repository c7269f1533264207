import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Regressions for the defects an outside review found that silently hid or changed data
/// (issue 12, "Data that silently goes wrong"). Each test fails on the code before its fix.
@Suite struct IntegrityTests {
    /// A store whose "today" is 2027-05-15, so month arithmetic does not depend on the day the tests run.
    static func store() async throws -> Store {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2027-05-15T12:00:00Z")!.timeIntervalSinceNow))
        return store
    }

    /// The entity ids of an outcome's events of one type, in order.
    static func ids(_ outcome: RouterOutcome, _ type: String) throws -> [Int64] {
        try outcome.events.filter { $0.type == type }.map { event in
            let decoded = try MessageCoding.decoder().decode(ChangeEvent.self, from: event.frame)
            return Int64(decoded.id)!
        }
    }

    // 1. A goal contribution and the transfer that moved its money are one fact.
    @Test func deletingAGoalsTransferWithdrawsItsContribution() async throws {
        let store = try await Self.store()
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "1000"))
        let savings = try await store.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
        let goal = try await store.call(GoalCreateRequest(name: "Holiday", target: "2400", walletId: savings.id))
        let funded = try await store.send(GoalFundRequest(id: goal.id, amount: "700", fromWalletId: checking.id))
        let legs = try Self.ids(funded, "tx.created")
        #expect(try await store.call(GoalGetRequest(id: goal.id)).current == "700.00")
        _ = try await store.call(GoalFundRequest(id: goal.id, amount: "50"))  // recorded by hand: no transfer

        // Deleting either leg deletes the transfer and withdraws what it moved, in one write.
        let outcome = try await store.send(TransactionDeleteRequest(id: legs[1]))
        let reply = try MessageCoding.decoder().decode(Envelope<TransactionDeleteReply>.self, from: outcome.reply).body
        #expect(reply.deletedIds.sorted() == legs.sorted())
        #expect(reply.withdrawnContributions.map(\.amount) == ["700.00"])
        #expect(reply.withdrawnContributions.first?.withdrawnAt != nil)
        #expect(outcome.events.map(\.type).contains("goal.updated"))
        let after = try await store.call(GoalGetRequest(id: goal.id))
        #expect(after.current == "50.00")
        #expect(try await store.call(WalletGetRequest(id: savings.id)).balance == "0.00")
        // The history keeps the withdrawn contribution.
        let history = try await store.call(GoalContributionsRequest(id: goal.id)).contributions
        #expect(history.count == 2)
        #expect(history.filter { $0.withdrawnAt != nil }.map(\.amount) == ["700.00"])
    }

    // 1. An auto-funded month whose transfer was deleted stays taken: the money is not moved again.
    @Test func aWithdrawnAutoFundMonthIsNotFundedAgain() async throws {
        let store = try await Self.store()
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "1000"))
        let savings = try await store.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
        let goal = try await store.call(GoalCreateRequest(name: "Car", target: "5000", walletId: savings.id,
                                                          autoFund: AutoFundRule(kind: .fixed, amount: "100", dayOfMonth: 1, fromWalletId: checking.id)))
        let funded = try await store.send(GoalAutoFundRequest(id: goal.id, month: "2027-05"), key: "goal:\(goal.id):autofund:2027-05")
        let leg = try #require(try Self.ids(funded, "tx.created").first)
        _ = try await store.call(TransactionDeleteRequest(id: leg))
        #expect(try await store.call(GoalAutoFundRequest(id: goal.id, month: "2027-05")).current == "0.00")
        #expect(try await store.call(WalletGetRequest(id: checking.id)).balance == "1000.00")
    }

    // 2. A budget's limit has a history: a change from a later month leaves earlier months alone.
    @Test func changingABudgetFromALaterMonthKeepsEarlierMonths() async throws {
        let store = try await Self.store()
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "5000"))
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let budget = try await store.call(BudgetSetRequest(categoryId: food.id, limit: "150", carryOver: true, startMonth: "2027-01"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: "180", categoryId: food.id, date: "2027-01-10"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: "100", categoryId: food.id, date: "2027-02-10"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: "120", categoryId: food.id, date: "2027-03-10"))
        let changed = try await store.call(BudgetSetRequest(categoryId: food.id, limit: "200", startMonth: "2027-03"))
        #expect(changed.id == budget.id)
        #expect(changed.startMonth == "2027-01")
        #expect(changed.limits == [BudgetLimit(fromMonth: "2027-01", limit: "150.00", currency: "EUR"),
                                   BudgetLimit(fromMonth: "2027-03", limit: "200.00", currency: "EUR")])
        #expect(changed.limit == "200.00")  // in force in May

        func month(_ month: String) async throws -> BudgetMonth? {
            try await store.call(BudgetStatusRequest(month: month)).budgets.first
        }
        let january = try #require(try await month("2027-01"))
        #expect(january.limit == "150.00")
        #expect(january.remaining == "-30.00")
        #expect(january.reached == [50, 80, 100])
        // February carries January's overspend: 150 - 30 = 120 available, 100 spent.
        let february = try #require(try await month("2027-02"))
        #expect(february.limit == "150.00")
        #expect(february.carried == "-30.00")
        #expect(february.remaining == "20.00")
        // March has the new limit and carries what January and February left, each with its own.
        let march = try #require(try await month("2027-03"))
        #expect(march.limit == "200.00")
        #expect(march.carried == "20.00")
        #expect(march.available == "220.00")

        // A change earlier than the start moves the start back; one in the same month replaces it.
        let earlier = try await store.call(BudgetSetRequest(categoryId: food.id, limit: "90", startMonth: "2026-12"))
        #expect(earlier.startMonth == "2026-12")
        #expect(earlier.limits?.map(\.fromMonth) == ["2026-12", "2027-01", "2027-03"])
        let replaced = try await store.call(BudgetSetRequest(categoryId: food.id, limit: "210", startMonth: "2027-03"))
        #expect(replaced.limits?.map(\.limit) == ["90.00", "150.00", "210.00"])
    }

    // 3. A category with budgeting off has no budget.
    @Test func budgetingOffRefusesABudget() async throws {
        let store = try await Self.store()
        let gifts = try await store.call(CategoryCreateRequest(name: "Gifts", kind: .expense, budgetingEnabled: false))
        let refusal = try await store.failure(BudgetSetRequest(categoryId: gifts.id, limit: "100"))
        #expect(refusal.code == .validationFailed)
        #expect(refusal.field == "body.categoryId")
        #expect(try store.count("budgets") == 0)
        // And budgeting cannot be turned off under an existing budget.
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        _ = try await store.call(BudgetSetRequest(categoryId: food.id, limit: "100"))
        let conflict = try await store.failure(CategoryUpdateRequest(id: food.id, budgetingEnabled: false))
        #expect(conflict.code == .conflict)
        #expect(conflict.field == "body.budgetingEnabled")
    }

    // 4. A recurring occurrence the store cannot post pauses its template and says so, once.
    @Test func aTemplateOnAnArchivedWalletIsPausedWithAnAlert() async throws {
        let store = try await Self.store()
        let old = try await store.call(WalletCreateRequest(name: "Old", currency: "EUR"))
        let template = try await store.call(RecurringCreateRequest(
            name: "Gym", template: RecurringTemplate(kind: .expense, walletId: old.id, amount: "30"), frequency: .monthly, startDate: "2027-05-01"))
        _ = try await store.call(WalletArchiveRequest(id: old.id))
        let outcome = try await store.send(RecurringPostRequest(id: template.id, occurrence: "2027-05-01"), key: "recurring:\(template.id):2027-05-01")
        let reply = try MessageCoding.decoder().decode(Envelope<RecurringPostReply>.self, from: outcome.reply).body
        #expect(reply.blocked?.contains("archived") == true)
        #expect(reply.transaction == nil)
        #expect(reply.recurring.paused)
        #expect(outcome.events.map(\.type) == ["recurring.updated", "alert.raised"])
        let alerts = try await store.call(AlertListRequest()).alerts
        #expect(alerts.map(\.kind) == [.recurringBlocked])
        #expect(alerts.first?.key == "recurring:\(template.id):2027-05-01:blocked")
        #expect(try store.count("transactions") == 0)
    }

    // 5. Archiving a wallet never drops its money from net worth.
    @Test func anArchivedWalletStillCountsInNetWorth() async throws {
        let store = try await Self.store()
        _ = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "100"))
        let old = try await store.call(WalletCreateRequest(name: "Old savings", currency: "EUR", startingBalance: "250"))
        let empty = try await store.call(WalletCreateRequest(name: "Empty", currency: "EUR"))
        _ = try await store.call(WalletArchiveRequest(id: old.id))
        _ = try await store.call(WalletArchiveRequest(id: empty.id))
        let report = try await store.call(BalanceReportRequest())
        #expect(report.total == "350.00")
        // The archived wallet that holds money is listed (marked), so the total adds what is shown.
        #expect(report.wallets.map(\.name) == ["Checking", "Old savings"])
        #expect(report.wallets.last?.archived == true)
        #expect(try await store.call(BalanceReportRequest(includeArchived: true)).wallets.count == 3)
    }

    // 6. Every waiting transaction a new rate covers is filled, however many and however old.
    @Test func aRateFillsEveryWaitingTransactionItCovers() async throws {
        let store = try await Self.store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let items = (0..<1_500).map { index in
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "1.00", date: "2024-01-\(String(format: "%02d", index % 28 + 1))"))
        }
        _ = try await store.call(TransactionImportRequest(importId: "usd", items: items))
        let old = (0..<5_000).map { _ in TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "1.00", date: "2020-06-01")) }
        _ = try await store.call(TransactionImportRequest(importId: "old", items: old))
        let waiting = try await store.call(RatesWaitingRequest())
        #expect(waiting.pairs == [WaitingPair(from: "USD", to: "EUR", count: 6_500, earliestDate: "2020-06-01", latestDate: "2024-01-28")])

        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.9", asOf: "2023-12-01"))
        func missing() throws -> Int {
            try store.database.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions WHERE base_amount_minor IS NULL") ?? 0 }
        }
        #expect(try missing() == 5_000)  // only the 2020 ones, which no rate covers
        let after = try await store.call(RatesWaitingRequest())
        #expect(after.pairs == [WaitingPair(from: "USD", to: "EUR", count: 5_000, earliestDate: "2020-06-01", latestDate: "2020-06-01")])
        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.8", asOf: "2020-01-01"))
        #expect(try missing() == 0)
        #expect(try await store.call(RatesWaitingRequest()).pairs.isEmpty)
    }

    // The design's fallback: a parallel profile takes the user's manual rate for a pair its feed lacks.
    @Test func parallelFallsBackToManualForAMissingPair() async throws {
        let store = try await Self.store()
        let profiles = try await store.call(RateProfileListRequest()).profiles
        let parallel = try #require(profiles.first { $0.type == .parallel })
        let manual = try #require(profiles.first { $0.type == .manual })
        _ = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1185.50", profileId: parallel.id))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.10", profileId: manual.id))
        _ = try await store.call(RateProfileUseRequest(id: parallel.id))
        // EUR→ARS: EUR→USD from manual (the feed has no EUR), USD→ARS from the parallel feed.
        let converted = try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "ARS"))
        #expect(converted.result == "130405.00")
        #expect(converted.snapshot.profileName == "parallel")
        #expect(converted.snapshot.source.contains("manual"))
        // A pair the feed has is never taken from manual, even when manual has a rate for it.
        _ = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "999", profileId: manual.id))
        #expect(try await store.call(ConvertRequest(amount: "1", from: "USD", to: "ARS")).result == "1185.50")
        // The official profile does not fall back.
        _ = try await store.call(RateProfileUseRequest(id: try #require(profiles.first { $0.type == .official }).id))
        #expect(try await store.failure(ConvertRequest(amount: "1", from: "USD", to: "ARS")).code == .validationFailed)
    }

    // Protocol edge: `rates.profile.use` publishes one event per record that changed, nothing twice.
    @Test func usingAProfilePublishesWhatChangedOnce() async throws {
        let store = try await Self.store()
        let blue = try await store.call(RateProfileCreateRequest(name: "blue", type: .parallel, primarySource: "dropfolder"))
        let first = try await store.send(RateProfileUseRequest(id: blue.id))
        #expect(first.events.map(\.type) == ["rates.profile.updated", "rates.profile.updated", "settings.updated"])
        #expect(Set(try Self.ids(first, "rates.profile.updated")).count == 2)
        let again = try await store.send(RateProfileUseRequest(id: blue.id))
        #expect(again.events.isEmpty)
    }

    // 11. Transaction ids are never handed out again, not even the newest after its delete.
    @Test func aDeletedNewestTransactionsIdIsNotReused() async throws {
        let store = try await Self.store()
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let first = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1", date: "2027-05-01"))
        _ = try await store.call(TransactionDeleteRequest(id: first.id))
        let second = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "2", date: "2027-05-01"))
        #expect(second.id > first.id)
    }

    // 11. The migration keeps every row, column and index of an existing database.
    @Test func theTransactionIdMigrationKeepsAnExistingLedger() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path)
        let migrator = StoreMigrations.migrator()
        try migrator.migrate(queue, upTo: "v5-reports-imports")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO wallets (name, currency, type, starting_balance_minor, balance_minor, created_at, updated_at) VALUES ('Cash', 'EUR', 'cash', 0, 0, 'now', 'now')")
            for id in 1...3 {
                try db.execute(sql: """
                    INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, date, created_at, updated_at, import_key)
                    VALUES (?, 'expense', 1, 100, 'EUR', -100, '2026-01-01', 'now', 'now', ?)
                    """, arguments: [id, "key-\(id)"])
            }
            try db.execute(sql: "INSERT INTO categories (name, kind, created_at, updated_at) VALUES ('Food', 'expense', 'now', 'now')")
            try db.execute(sql: "INSERT INTO splits (tx_id, position, amount_minor, category_id) VALUES (2, 0, 100, 1)")
        }
        let before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM transactions ORDER BY id") }
        let indexesBefore = try queue.read { db in try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions'") }
        // Up to the migration under test: later ones add columns (v10 the investment link).
        try migrator.migrate(queue, upTo: "v6-transaction-ids-never-reused")
        let (after, indexes, definition, splits) = try queue.read { db in
            (try Row.fetchAll(db, sql: "SELECT * FROM transactions ORDER BY id"),
             try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions'"),
             try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'transactions'") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM splits") ?? 0)
        }
        #expect(after == before)
        #expect(indexes.isSuperset(of: indexesBefore))
        #expect(definition.contains("AUTOINCREMENT"))
        #expect(splits == 1)
    }
}

/// Opening a database: refused when a newer version migrated it, copied before a migration.
@Suite struct DatabaseOpeningTests {
    static func folder() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aDatabaseFromANewerVersionIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledgerly.sqlite")
        _ = try StoreDatabase(url: url, durability: .normal)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        #expect {
            _ = try StoreDatabase(url: url, durability: .normal)
        } throws: { error in
            "\(error)".contains("newer Ledgerly") && "\(error)".contains("v99-from-the-future")
        }
    }

    @Test func aLedgerIsCopiedBeforeItIsMigrated() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledgerly.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try StoreMigrations.migrator().migrate(queue, upTo: "v5-reports-imports")
        try queue.close()
        let opened = try StoreDatabase(url: url, durability: .normal)
        let copy = try #require(opened.backupBeforeMigration)
        #expect(copy.deletingLastPathComponent().lastPathComponent == "backups")
        let copied = try DatabaseQueue(path: copy.path)
        #expect(try copied.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }.last == "v5-reports-imports")
        // A new database, or one already up to date, is not copied.
        #expect(try StoreDatabase(url: url, durability: .normal).backupBeforeMigration == nil)
        #expect(try StoreDatabase(url: folder.appendingPathComponent("new.sqlite"), durability: .normal).backupBeforeMigration == nil)
    }
}
