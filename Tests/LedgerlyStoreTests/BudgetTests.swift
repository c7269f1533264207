import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Budgets against a real database: what counts as spending, carry-over, thresholds, and the
/// alert log's once-per-key rule.
@Suite struct BudgetTests {
    struct Ledger {
        let store: Store
        let card: WalletRecord
        let food: CategoryRecord
        let groceries: CategoryRecord
        let eatingOut: CategoryRecord
        let rent: CategoryRecord
        let salary: CategoryRecord

        init() async throws {
            store = try await Store()
            card = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR", startingBalance: "5000"))
            food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
            groceries = try await store.call(CategoryCreateRequest(name: "Groceries", parentId: food.id))
            eatingOut = try await store.call(CategoryCreateRequest(name: "Eating out", parentId: food.id))
            rent = try await store.call(CategoryCreateRequest(name: "Rent", kind: .expense))
            salary = try await store.call(CategoryCreateRequest(name: "Salary", kind: .income))
        }

        @discardableResult
        func spend(_ amount: String, _ category: CategoryRecord, on date: String = "2026-11-10", kind: TransactionKind = .expense) async throws -> TransactionRecord {
            try await store.call(TransactionCreateRequest(kind: kind, walletId: card.id, amount: amount, categoryId: category.id, date: date))
        }

        func month(_ budget: BudgetRecord, _ month: String = "2026-11") async throws -> BudgetMonth {
            try #require(try await store.call(BudgetStatusRequest(month: month, budgetIds: [budget.id])).budgets.first)
        }
    }

    @Test func aParentCountsItsChildrenSplitPartsAndRefundsButNotTransfers() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let budget = try await store.call(BudgetSetRequest(categoryId: ledger.food.id, limit: "200", startMonth: "2026-11"))
        #expect(budget.thresholds == [50, 80, 100])
        #expect(budget.currency == "EUR")

        try await ledger.spend("60", ledger.groceries)
        try await ledger.spend("40", ledger.eatingOut)
        try await ledger.spend("900", ledger.rent)  // another budget's category
        try await ledger.spend("15", ledger.groceries, kind: .income)  // a refund
        try await ledger.spend("30", ledger.groceries, on: "2026-10-31")  // another month
        // A split: 25 to groceries, 75 to rent; only the groceries part counts.
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ledger.card.id, amount: "100", date: "2026-11-12",
                                                          splits: [SplitPart(amount: "25", categoryId: ledger.groceries.id), SplitPart(amount: "75", categoryId: ledger.rent.id)]))
        let savings = try await store.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
        _ = try await store.call(TransferCreateRequest(fromWalletId: ledger.card.id, toWalletId: savings.id, amount: "500", date: "2026-11-13"))

        let month = try await ledger.month(budget)
        #expect(month.spent == "110.00")  // 60 + 40 − 15 + 25
        #expect(month.remaining == "90.00")
        #expect(month.percent == "55.0")
        #expect(month.reached == [50])
        #expect(month.uncounted == 0)
        #expect(try await store.call(BudgetStatusRequest(month: "2026-11", categoryIds: [ledger.groceries.id])).budgets.map(\.budget.id) == [budget.id])
        #expect(try await store.call(BudgetStatusRequest(month: "2026-11", categoryIds: [ledger.rent.id])).budgets.isEmpty)
    }

    @Test func foreignSpendingCountsAtItsSnapshotAndWaitingOnesAreReported() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let budget = try await store.call(BudgetSetRequest(categoryId: ledger.food.id, limit: "100", startMonth: "2026-11"))
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: yen.id, amount: "5000", categoryId: ledger.groceries.id, date: "2026-11-02"))
        #expect(try await ledger.month(budget).uncounted == 1)
        _ = try await store.call(RateBatchRequest(profileId: 1, source: "ecb", rates: [RateInput(base: "EUR", quote: "JPY", rate: "175.68", asOf: "2026-10-30T15:00:00.000Z")]))
        let month = try await ledger.month(budget)
        #expect(month.spent == "28.46")  // 5000 ÷ 175.68, the kept snapshot
        #expect(month.uncounted == 0)
        // A later rate does not change it.
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "150", profileId: 1))
        #expect(try await ledger.month(budget).spent == "28.46")
    }

    @Test func carryOverGoesBothWays() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let budget = try await store.call(BudgetSetRequest(categoryId: ledger.groceries.id, limit: "100", carryOver: true, startMonth: "2026-09"))
        try await ledger.spend("70", ledger.groceries, on: "2026-09-05")  // 30 left → carried into October
        try await ledger.spend("150", ledger.groceries, on: "2026-10-05")  // 130 available, 20 over → taken from November
        let october = try await ledger.month(budget, "2026-10")
        #expect(october.carried == "30.00")
        #expect(october.available == "130.00")
        #expect(october.reached == [50, 80, 100])
        let november = try await ledger.month(budget, "2026-11")
        #expect(november.carried == "-20.00")
        #expect(november.available == "80.00")
        // Without carry-over every month starts afresh.
        _ = try await store.call(BudgetSetRequest(categoryId: ledger.groceries.id, limit: "100", carryOver: false))
        #expect(try await ledger.month(budget, "2026-11").available == "100.00")
    }

    @Test func budgetsAreForExpenseCategoriesWithSaneThresholds() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        #expect(try await store.failure(BudgetSetRequest(categoryId: ledger.salary.id, limit: "100")).field == "body.categoryId")
        #expect(try await store.failure(BudgetSetRequest(categoryId: ledger.food.id, limit: "-5")).field == "body.limit")
        #expect(try await store.failure(BudgetSetRequest(categoryId: ledger.food.id, limit: "5", thresholds: [80, 80])).field == "body.thresholds")
        #expect(try await store.failure(BudgetSetRequest(categoryId: ledger.food.id, limit: "5", startMonth: "2026-13")).field == "body.startMonth")
        let switched = try await store.call(BudgetSetRequest(categoryId: ledger.food.id, limit: "5", thresholds: [100, 80]))
        #expect(switched.thresholds == [80, 100])
        // Setting again changes the one budget of the category.
        let changed = try await store.call(BudgetSetRequest(categoryId: ledger.food.id, limit: "300"))
        #expect(changed.id == switched.id)
        #expect(changed.thresholds == [80, 100])
        #expect(try await store.call(BudgetListRequest()).budgets.count == 1)
        _ = try await store.call(BudgetDeleteRequest(id: changed.id))
        #expect(try await store.call(BudgetListRequest()).budgets.isEmpty)
    }

    @Test func anAlertKeyIsRaisedOnce() async throws {
        let store = try await Store()
        let request = AlertRaiseRequest(kind: .budgetThreshold, key: "budget:1:2026-11:80", subject: "Groceries", message: "Groceries: 80 % of the 2026-11 budget", period: "2026-11", threshold: 80)
        let first = try await store.send(request)
        #expect(first.events.map(\.type) == ["alert.raised"])
        // Another key-of-request (a replay, a race): the same alert, nothing new.
        let again = try await store.send(request)
        #expect(again.events.isEmpty)
        let reply = try await store.call(request)
        #expect(reply.duplicate)
        #expect(try await store.call(AlertListRequest()).alerts.map(\.key) == ["budget:1:2026-11:80"])
        #expect(try await store.call(AlertListRequest(afterId: reply.alert.id)).alerts.isEmpty)
    }

    @Test(arguments: [
        (Int64(100), [Int64(25), 75], Int64(100), [Int64(25), 75]),
        (-1_000, [1, 1, 1], 3, [-334, -333, -333]),
        (2_846, [3_333, 3_333, 3_334], 10_000, [949, 948, 949]),  // 948.57…, 948.57…, 948.86…: the two largest remainders get the 2 left
    ])
    func splitSharesAddUpExactly(base: Int64, parts: [Int64], total: Int64, expected: [Int64]) {
        let shares = ProportionalShares.allocate(base, parts: parts, total: total)
        #expect(shares == expected)
        #expect(shares.reduce(0, +) == base)
    }

    @Test func percentagesRoundHalfToEven() {
        #expect(BudgetEvaluator.oneDecimalPercent(160_00, of: 200_00) == "80.0")
        #expect(BudgetEvaluator.oneDecimalPercent(1, of: 3) == "33.3")
        #expect(BudgetEvaluator.oneDecimalPercent(1, of: 16) == "6.2")  // 6.25 → 6.2
        #expect(BudgetEvaluator.oneDecimalPercent(3, of: 16) == "18.8")  // 18.75 → 18.8
        #expect(BudgetEvaluator.oneDecimalPercent(-15, of: 200) == "-7.5")
    }
}
