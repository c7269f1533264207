import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Turns changes into budget alerts: a transaction touches the budgets its categories count
/// towards (its own category's and every ancestor's), in its month; a changed budget touches
/// itself. Only those are evaluated — by the store, which has the figures (`budget.status`) —
/// and every threshold reached is raised through the alert log, lowest first.
///
/// The rule for "exactly once": an alert is unique per budget, month and threshold
/// (`budget:<id>:<YYYY-MM>:<percent>`). Spending that falls back below a threshold and crosses it
/// again in the same month does not raise it again; a new month does. A replayed or repeated
/// evaluation only finds the key taken.
actor BudgetWatcher {
    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger
    /// Keys known to be in the alert log, so a replay does not ask the store again for each.
    private var raised: Set<String> = []

    init(store: AsyncRequestClient, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    func handle(_ change: ChangePayload) async throws {
        switch change {
        case .txCreated(let transaction), .txUpdated(let transaction), .txDeleted(let transaction):
            guard transaction.transfer == nil else { return }
            let categories = ([transaction.categoryId].compactMap { $0 } + transaction.splits.map(\.categoryId))
            guard !categories.isEmpty else { return }
            let month = String(transaction.date.prefix(7))
            try await evaluate(BudgetStatusRequest(month: month, categoryIds: categories))
            // With carry-over, an earlier month changes what the current one has available.
            let current = currentMonth
            if month < current { try await evaluate(BudgetStatusRequest(month: current, categoryIds: categories)) }
        case .txImported(let summary):
            // One event per import batch. Only the current month is evaluated: loading years of
            // history must not raise an alert for every month that is long over (D68).
            let current = currentMonth
            guard !summary.categoryIds.isEmpty, summary.months.contains(where: { $0 <= current }) else { return }
            try await evaluate(BudgetStatusRequest(month: current, categoryIds: summary.categoryIds))
        case .budgetCreated(let budget), .budgetUpdated(let budget):
            try await evaluate(BudgetStatusRequest(month: currentMonth, budgetIds: [budget.id]))
        default:
            return
        }
    }

    /// The database was replaced: keys remembered from the old one mean nothing.
    func reset() { raised = [] }

    private var currentMonth: String { String(Timestamp.today(at: clock.now()).prefix(7)) }

    private func evaluate(_ request: BudgetStatusRequest) async throws {
        let settings = try await store.call(SettingsGetRequest())
        guard settings.onboardingCompleted, settings.notifications.budgetAlerts else { return }
        let status = try await store.call(request)
        for month in status.budgets {
            for threshold in month.reached {
                let key = "budget:\(month.budget.id):\(status.month):\(threshold)"
                guard !raised.contains(key) else { continue }
                let reply = try await store.call(AlertRaiseRequest(
                    kind: .budgetThreshold, key: key, subject: month.budget.categoryName,
                    message: "\(month.budget.categoryName): \(threshold) % of the \(status.month) budget reached (\(month.spent) of \(month.available) \(status.baseCurrency) spent)",
                    period: status.month, threshold: threshold,
                    data: .object([
                        "budgetId": .integer(month.budget.id), "categoryId": .integer(month.budget.categoryId), "month": .string(status.month),
                        "spent": .string(month.spent), "available": .string(month.available), "currency": .string(status.baseCurrency),
                        "percent": month.percent.map(JSONValue.string) ?? .null,
                    ])))
                raised.insert(key)
                if !reply.duplicate { logger.info("raised", metadata: ["key": "\(key)"]) }
            }
        }
    }
}
