import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Saving goals: an alert when a goal reaches 25, 50, 75 and 100 % (`goal:<id>:<percent>`) and
/// when it falls behind the pace its deadline needs (`goal:<id>:behind:<YYYY-MM>`, at most once a
/// month), and the auto-fund rules, run on their day once per month
/// (`goal.autofund`, key `goal:<id>:autofund:<YYYY-MM>`), months missed during downtime included.
actor GoalWatcher {
    static let milestones = [25, 50, 75, 100]

    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger
    private var raised: Set<String> = []
    private var funded: Set<String> = []

    init(store: AsyncRequestClient, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    func handle(_ change: ChangePayload) async throws {
        switch change {
        case .goalCreated(let goal), .goalUpdated(let goal): try await evaluate(goal)
        default: return
        }
    }

    /// Pace changes with time alone, and auto-fund days come by: looked at on the schedule.
    func tick() async throws {
        let settings = try await store.call(SettingsGetRequest())
        guard settings.onboardingCompleted else { return }
        let today = Timestamp.today(at: clock.now())
        // Each goal on its own: one the store refuses (its source wallet archived) is logged
        // and retried next time without holding up the others.
        for goal in try await store.call(GoalListRequest()).goals {
            do {
                if let rule = goal.autoFund, goal.status == .active { try await autoFund(goal, rule: rule, today: today) }
                try await evaluate(goal)
            } catch {
                logger.warning("goal schedule failed for one goal; will retry", metadata: ["goal": "\(goal.name)", "error": "\(error)"])
            }
        }
    }

    /// The database was replaced: keys remembered from the old one mean nothing.
    func reset() {
        raised = []
        funded = []
    }

    private func autoFund(_ goal: GoalRecord, rule: AutoFundRule, today: String) async throws {
        var month = String(goal.createdAt.prefix(7))
        let created = String(goal.createdAt.prefix(10))
        while month <= String(today.prefix(7)) {
            let day = "\(month)-\(rule.dayOfMonth < 10 ? "0" : "")\(rule.dayOfMonth)"
            let key = "goal:\(goal.id):autofund:\(month)"
            if day >= created, day <= today, !funded.contains(key) {
                _ = try await store.call(GoalAutoFundRequest(id: goal.id, month: month), key: key)
                funded.insert(key)
                logger.info("auto-funded", metadata: ["goal": "\(goal.name)", "month": "\(month)"])
            }
            month = LedgerMonth.next(month)
        }
    }

    private func evaluate(_ goal: GoalRecord) async throws {
        let settings = try await store.call(SettingsGetRequest())
        guard settings.notifications.goalAlerts else { return }
        let tenths = Int(goal.percent.replacingOccurrences(of: ".", with: "")) ?? 0
        for milestone in Self.milestones where tenths >= milestone * 10 {
            let message = milestone == 100
                ? "\(goal.name): goal reached (\(goal.current) of \(goal.target) \(goal.currency))"
                : "\(goal.name): \(milestone) % of the goal saved (\(goal.current) of \(goal.target) \(goal.currency))"
            try await raise(goal, key: "goal:\(goal.id):\(milestone)", kind: .goalProgress, message: message, period: nil, threshold: milestone)
        }
        if goal.behindPace, goal.status == .active {
            let month = String(Timestamp.today(at: clock.now()).prefix(7))
            let needed = goal.monthlyNeeded.map { "; \($0) \(goal.currency) a month from now would make it" } ?? ""
            try await raise(goal, key: "goal:\(goal.id):behind:\(month)", kind: .goalBehind,
                            message: "\(goal.name): behind pace for \(goal.deadline ?? "its deadline") (\(goal.current) of \(goal.target) \(goal.currency) saved\(needed))",
                            period: month, threshold: nil)
        }
    }

    private func raise(_ goal: GoalRecord, key: String, kind: AlertKind, message: String, period: String?, threshold: Int?) async throws {
        guard !raised.contains(key) else { return }
        _ = try await store.call(AlertRaiseRequest(
            kind: kind, key: key, subject: goal.name, message: message, period: period, threshold: threshold,
            data: .object(["goalId": .integer(goal.id), "current": .string(goal.current), "target": .string(goal.target), "currency": .string(goal.currency), "percent": .string(goal.percent)])))
        raised.insert(key)
    }
}
