import AsyncHTTPClient
import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-alerts`: follows the store's change log, evaluates what each change touches
/// (budgets), runs the recurring-transaction schedule, raises alerts through the store's alert
/// log (once per key), and delivers every recorded alert to the sinks (the log, command hooks,
/// signed webhooks) without ever waiting for them.
public final class AlertsService: Service {
    public static let name = LedgerlyService.alerts.name

    private let follower: ChangeFollower
    private let dispatcher: AlertDispatcher
    private let recurring: RecurringScheduler
    private let goals: GoalWatcher
    private let staleRates: StaleRateWatcher
    private let logger: Logger
    private let wakeup: WakeupSignal

    public init(home: LedgerlyHome, clock: ServiceClock = .system, logger: Logger) throws {
        let configuration = try AlertSinksConfiguration.load(home: home, logger: logger)
        let store = AsyncRequestClient(.store, home: home, context: try ZMQContext(), timing: .standard)
        let dispatcher = AlertDispatcher(home: home, configuration: configuration, client: HTTPClient.shared, logger: logger)
        let wakeup = WakeupSignal()
        let goals = GoalWatcher(store: store, clock: clock, logger: logger)
        let consumer = AlertsChangeConsumer(
            log: LoggingChangeConsumer(logger: logger), logger: logger, budgets: BudgetWatcher(store: store, clock: clock, logger: logger), goals: goals, wakeup: wakeup,
            deliver: { alert in await dispatcher.dispatch(alert) }, replayed: ReplayedHistory())
        self.dispatcher = dispatcher
        self.wakeup = wakeup
        self.recurring = RecurringScheduler(store: store, clock: clock, logger: logger)
        self.goals = goals
        self.staleRates = StaleRateWatcher(store: store, logger: logger)
        self.logger = logger
        self.follower = ChangeFollower(service: Self.name, statusEndpoint: home.alertsCommandEndpoint, home: home, consumer: consumer, logger: logger)
        logger.info("sinks", metadata: [
            "commandHooks": "\(configuration.commandHooks.map(\.name).joined(separator: ", "))",
            "webhooks": "\(configuration.webhooks.map(\.name).joined(separator: ", "))",
        ])
    }

    /// The follower runs until graceful shutdown; deliveries run beside it and stop with it.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.follower.run() }
            group.addTask { await self.dispatcher.run() }
            group.addTask { await self.runSchedule() }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Starts once the follower holds the instance lock (a second instance must not post).
    private func runSchedule() async {
        guard await follower.waitUntilReady() else { return }
        while !Task.isCancelled {
            await recurring.runDue()
            do { try await goals.tick() } catch { logger.warning("goal schedule failed; will retry", metadata: ["error": "\(error)"]) }
            do { try await staleRates.tick() } catch { logger.warning("stale-rate check failed; will retry", metadata: ["error": "\(error)"]) }
            await wakeup.wait(upTo: RecurringScheduler.pollInterval)
        }
    }
}
