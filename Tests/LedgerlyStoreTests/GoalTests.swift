import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Saving goals against a real database: progress, what each month needs, funding from a
/// wallet, and the auto-fund rules.
@Suite struct GoalTests {
    /// A store whose "today" is 2026-11-15, so the month arithmetic below does not depend on the day the tests run.
    static func store() async throws -> Store {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        return store
    }

    @Test func progressAndTheMonthlyAmountNeeded() async throws {
        let store = try await Self.store()
        let goal = try await store.call(GoalCreateRequest(name: "Holiday", target: "2400", deadline: "2027-09-15"))
        #expect(goal.currency == "EUR")
        #expect(goal.percent == "0.0")
        #expect(goal.monthlyNeeded == "240.00")  // 2400 over the 10 months left
        #expect(!goal.behindPace)  // not on its first day
        let funded = try await store.call(GoalFundRequest(id: goal.id, amount: "600"))
        #expect(funded.current == "600.00")
        #expect(funded.percent == "25.0")
        #expect(funded.monthlyNeeded == "180.00")
        #expect(funded.status == .active)
        #expect(try await store.call(GoalFundRequest(id: goal.id, amount: "1800")).status == .achieved)
        #expect(try await store.failure(GoalCreateRequest(name: "Holiday", target: "1")).code == .conflict)
        #expect(try await store.failure(GoalCreateRequest(name: "Past", target: "1", deadline: "2020-01-01")).field == "body.deadline")
    }

    @Test func fundingFromAWalletMovesTheMoney() async throws {
        let store = try await Self.store()
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "1000"))
        let savings = try await store.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD", startingBalance: "50"))
        let goal = try await store.call(GoalCreateRequest(name: "Car", target: "5000", walletId: savings.id))
        let outcome = try await store.send(GoalFundRequest(id: goal.id, amount: "300", fromWalletId: checking.id))
        #expect(outcome.events.map(\.type) == ["tx.created", "tx.created", "goal.updated"])
        #expect(try await store.call(WalletGetRequest(id: savings.id)).balance == "300.00")
        #expect(try await store.call(WalletGetRequest(id: checking.id)).balance == "700.00")
        #expect(try await store.failure(GoalFundRequest(id: goal.id, amount: "10", fromWalletId: dollars.id)).field == "body.fromWalletId")
        #expect(try await store.failure(GoalCreateRequest(name: "Mixed", target: "10", currency: "USD", walletId: savings.id)).field == "body.walletId")
    }

    @Test func autoFundRulesFixedAndPercentOfIncome() async throws {
        let store = try await Self.store()
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        let fixed = try await store.call(GoalCreateRequest(name: "Fixed", target: "1000", autoFund: AutoFundRule(kind: .fixed, amount: "100", dayOfMonth: 1)))
        let share = try await store.call(GoalCreateRequest(name: "Share", target: "1000", autoFund: AutoFundRule(kind: .percentOfIncome, percent: "10", dayOfMonth: 5)))
        let groceries = try await store.call(CategoryCreateRequest(name: "Groceries", kind: .expense))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "2500", date: "2026-10-28"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "40", categoryId: groceries.id, date: "2026-10-29"))  // a refund, not income
        #expect(try await store.call(GoalAutoFundRequest(id: fixed.id, month: "2026-11")).current == "100.00")
        #expect(try await store.call(GoalAutoFundRequest(id: share.id, month: "2026-11")).current == "250.00")  // 10 % of October's 2500
        // Once per month, whatever the request key; never for a month outside the goal's life.
        #expect(try await store.call(GoalAutoFundRequest(id: fixed.id, month: "2026-11")).current == "100.00")
        #expect(try await store.failure(GoalAutoFundRequest(id: fixed.id, month: "2026-10")).field == "body.month")
        #expect(try await store.failure(GoalAutoFundRequest(id: fixed.id, month: "2026-12")).field == "body.month")
        #expect(try await store.failure(GoalCreateRequest(name: "Bad", target: "1", autoFund: AutoFundRule(kind: .fixed, dayOfMonth: 31))).field == "body.autoFund.dayOfMonth")
    }
}
