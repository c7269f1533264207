import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Restoring an export (`ledger.restore.begin`, `rates.restore`, `tx.import` with kept ids,
/// `ledger.restore.finish`) against a real database: ids and states come back as they were,
/// and a ledger that is not new is refused.
@Suite struct RestoreTests {
    /// A store whose "today" is 2026-11-15.
    static func store() async throws -> Store { try await GoalTests.store() }

    static let created = "2026-03-02T09:00:00.000Z"

    static func wallet(_ id: Int64, _ name: String, archived: Bool = false) -> WalletRecord {
        WalletRecord(id: id, name: name, icon: nil, currency: "EUR", type: .bank, startingBalance: "100.00", balance: "0.00", institution: nil,
                     sortOrder: 0, includeInNetWorth: true, archived: archived, createdAt: created, updatedAt: created)
    }

    static let begin = LedgerRestoreBeginRequest(
        wallets: [wallet(4, "Checking"), wallet(9, "Savings"), wallet(12, "Old", archived: true)],
        categories: [CategoryRecord(id: 21, name: "Rent", kind: .expense, parentId: 20, path: "Home/Rent", icon: nil, color: nil, budgetingEnabled: true, sortOrder: 0),
                     CategoryRecord(id: 20, name: "Home", kind: .expense, parentId: nil, path: "Home", icon: nil, color: nil, budgetingEnabled: true, sortOrder: 0)],
        tags: [TagRecord(id: 3, name: "shared")], rateProfiles: [],
        alerts: [AlertRecord(id: 40, kind: .budgetThreshold, key: "budget:7:2026-10:80", subject: "Home", message: "Home at 80 %", period: "2026-10",
                             threshold: 80, data: nil, raisedAt: "2026-10-20T08:00:00.000Z"),
                 // A template deleted before the export: its id must not be handed out again.
                 AlertRecord(id: 41, kind: .recurringDue, key: "recurring:15:2026-09-01", subject: "Gym", message: "Gym: 30 EUR posted for 2026-09-01",
                             period: "2026-09-01", threshold: nil, data: nil, raisedAt: "2026-09-01T06:00:00+02:00")],
        conversions: [])

    @Test func everythingComesBackUnderItsIds() async throws {
        let store = try await Self.store()
        let summary = try await store.send(Self.begin)
        #expect(summary.events.map(\.type).filter { $0 == "ledger.restored" }.count == 1)
        #expect(!summary.events.map(\.type).contains("alert.raised"))  // a restored alert is not raised again
        #expect(try await store.call(WalletListRequest(includeArchived: true)).wallets.map(\.id).sorted() == [4, 9, 12])
        #expect(try await store.call(CategoryListRequest()).categories.map(\.path).sorted() == ["Home", "Home/Rent"])

        let imported = try await store.call(TransactionImportRequest(importId: "restore-1", items: [
            TransactionImportItem(importKey: "bank-row-1", transaction: TransactionCreateRequest(kind: .expense, walletId: 4, amount: "20", categoryId: 21, date: "2026-11-01"),
                                  kept: KeptAmounts(walletAmount: "20.00", baseAmount: "20.00", id: 30, importId: "csv-7c1e9a42", createdAt: Self.created, updatedAt: "2026-11-02T10:00:00.000Z")),
            TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: 4, toWalletId: 9, amount: "50", date: "2026-11-03"),
                                  kept: KeptAmounts(baseAmount: "50.00", id: 33, incomingId: 34)),
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: 12, amount: "5", date: "2026-11-04"),
                                  kept: KeptAmounts(walletAmount: "5.00", baseAmount: "5.00", id: 35)),
        ]))
        #expect(imported.imported == 3)
        let rent = try await store.call(TransactionGetRequest(id: 30))
        #expect(rent.categoryId == 21 && rent.createdAt == Self.created && rent.updatedAt == "2026-11-02T10:00:00.000Z")
        // The bank row's key and its import come back; a transaction typed by hand has neither.
        #expect(rent.importKey == "bank-row-1" && rent.importId == "csv-7c1e9a42")
        #expect(try await store.call(TransactionGetRequest(id: 35)).importId == nil)
        #expect(try await store.call(TransactionGetRequest(id: 34)).transfer?.counterpartyTransactionId == 33)
        // An id that is taken is refused, naming the item.
        let taken = try await store.failure(TransactionImportRequest(importId: "restore-2", items: [
            TransactionImportItem(importKey: "other", transaction: TransactionCreateRequest(kind: .expense, walletId: 4, amount: "1", date: "2026-11-05"), kept: KeptAmounts(baseAmount: "1.00", id: 34)),
        ]))
        #expect(taken.code == .conflict && taken.field == "body.items[0].kept.id")

        let goal = GoalRecord(id: 5, name: "Car", target: "1000.00", currency: "EUR", deadline: "2026-06-01", walletId: 9, categoryId: nil, current: "50.00", status: .active,
                              autoFund: AutoFundRule(kind: .fixed, amount: "25", dayOfMonth: 1, fromWalletId: 4), percent: "5.0", monthlyNeeded: nil, behindPace: true,
                              createdAt: Self.created, updatedAt: Self.created)
        let contribution = GoalContributionRecord(id: 8, goalId: 5, amount: "50.00", date: "2026-11-03", transactionId: 33, autoFundMonth: "2026-11", createdAt: Self.created)
        let monthly = RecurringRecord(id: 6, name: "Rent", template: RecurringTemplate(kind: .expense, walletId: 4, amount: "700", categoryId: 21), frequency: .monthly, every: 1,
                                      startDate: "2026-01-31", endDate: nil, nextRun: "2026-11-30", mode: .post, paused: false, createdAt: Self.created, updatedAt: Self.created)
        let finished = try await store.send(LedgerRestoreFinishRequest(
            budgets: [BudgetRecord(id: 7, categoryId: 20, categoryName: "Home", limit: "900.00", currency: "EUR", thresholds: [80, 100], carryOver: true,
                                   startMonth: "2026-01", createdAt: Self.created, updatedAt: Self.created)],
            goals: [GoalRestore(goal: goal, contributions: [contribution])], recurring: [monthly], archivedWalletIds: [12]))
        #expect(finished.events.map(\.type) == ["budget.created", "goal.created", "recurring.created", "wallet.archived"])
        #expect(try await store.call(GoalContributionsRequest(id: 5)).contributions == [contribution])
        #expect(try await store.call(GoalGetRequest(id: 5)).current == "50.00")  // a deadline now past is kept
        // The auto-fund month it had is still taken.
        #expect(try await store.call(GoalAutoFundRequest(id: 5, month: "2026-11")).current == "50.00")
        #expect(try await store.call(WalletGetRequest(id: 12)).archived)
        // The template carries on from the occurrence it had reached (Nov 30, the 11th), then Dec 31.
        let posted = try await store.call(RecurringPostRequest(id: 6, occurrence: "2026-11-30"))
        #expect(posted.recurring.nextRun == "2026-12-31")
        #expect(try await store.call(BudgetListRequest()).budgets.map(\.id) == [7])
        let next = try await store.call(RecurringCreateRequest(name: "New", template: RecurringTemplate(kind: .expense, walletId: 4, amount: "1"), frequency: .monthly, startDate: "2027-01-01"))
        #expect(next.id == 16)
        // Times are stored as the store writes them (they are compared as text).
        let raised = try await store.call(AlertListRequest(afterId: 0)).alerts.map(\.raisedAt)
        #expect(raised.prefix(2) == ["2026-10-20T08:00:00.000Z", "2026-09-01T04:00:00.000Z"])  // then the reminder of the post above
    }

    @Test func aLedgerThatIsNotNewIsRefused() async throws {
        let store = try await Self.store()
        _ = try await store.call(WalletCreateRequest(name: "Mine", currency: "EUR"))
        #expect(try await store.failure(Self.begin).code == .conflict)
        #expect(try await store.call(WalletListRequest()).wallets.map(\.name) == ["Mine"])
        _ = try await store.call(BudgetSetRequest(categoryId: try await store.call(CategoryCreateRequest(name: "Food", kind: .expense)).id, limit: "10"))
        #expect(try await store.failure(LedgerRestoreFinishRequest(budgets: [], goals: [], recurring: [], archivedWalletIds: [])).code == .conflict)
    }

    @Test func aBadRecordRestoresNothing() async throws {
        let store = try await Self.store()
        var orphan = Self.begin
        orphan.categories.removeLast()  // Home/Rent without Home
        #expect(try await store.failure(orphan).field == "body.categories[0].parentId")
        #expect(try await store.call(WalletListRequest(includeArchived: true)).wallets.isEmpty)
        _ = try await store.call(Self.begin)
        let offSchedule = RecurringRecord(id: 6, name: "Rent", template: RecurringTemplate(kind: .expense, walletId: 4, amount: "700"), frequency: .monthly, every: 1,
                                          startDate: "2026-01-31", endDate: nil, nextRun: "2026-11-29", mode: .post, paused: false, createdAt: Self.created, updatedAt: Self.created)
        #expect(try await store.failure(LedgerRestoreFinishRequest(budgets: [], goals: [], recurring: [offSchedule], archivedWalletIds: [])).field == "body.recurring[0].nextRun")
        #expect(try await store.call(RecurringListRequest()).recurring.isEmpty)
    }

    @Test func rateHistoryComesOutAndGoesBackAsItWas() async throws {
        let source = try await Self.store()
        _ = try await source.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0850", asOf: "2026-11-01"))
        _ = try await source.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0900", asOf: "2026-11-02", customOverride: true))
        _ = try await source.call(RateOverrideEndRequest(base: "EUR", quote: "USD"))
        let first = try await source.call(RateExportRequest(limit: 1))
        #expect(first.rates.count == 1 && first.nextAfterId != nil)
        let rest = try await source.call(RateExportRequest(afterId: first.nextAfterId, limit: 10))
        #expect(rest.nextAfterId == nil)
        let history = first.rates + rest.rates
        #expect(history.count == 2)

        let copy = try await Self.store()
        let restored = try await copy.send(RateRestoreRequest(rates: history))
        #expect(restored.events.map(\.type) == ["rates.updated"])
        #expect(try await copy.call(RateRestoreRequest(rates: history)) == RateRestoreReply(stored: 0, skipped: 2))
        let back = try await copy.call(RateExportRequest()).rates
        func withoutIds(_ rates: [RateRecord]) -> [RateRecord] { rates.map { var rate = $0; rate.id = 0; return rate } }
        #expect(withoutIds(back) == withoutIds(history))
        #expect(back.contains { $0.customOverride && $0.overrideEndedAt != nil })
    }
}
