import AsyncHTTPClient
import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-alerts`: follows the store's change log, evaluates what each change touches
/// (budgets, goals, allocation drift), runs the recurring-transaction schedule, raises alerts
/// through the store's alert log (once per key), and delivers every recorded alert to the sinks
/// (the log, command hooks, signed webhooks) without ever waiting for them.
///
/// It is five services run together in the process's one `ServiceGroup`: the change follower,
/// the alert delivery, the schedule, the allocation checks and the net-worth snapshots. Any of
/// them ending ends the process (supervisor restarts it), since none of them is meant to end
/// before shutdown.
public struct AlertsService: Sendable {
    public static let service = LedgerlyService.alerts

    /// In start order; stopped in reverse, so the follower, which holds the instance lock, stops
    /// last and the schedule first.
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]

    /// Creates the process's one ZeroMQ context, shared by the follower and the store client.
    public init(home: LedgerlyHome, clock: ServiceClock = .system, logger: Logger) throws {
        let configuration = try AlertSinksConfiguration.load(home: home, logger: logger)
        let context = try ZMQContext()
        let store = AsyncRequestClient(.store, home: home, context: context, timing: .standard)
        let dispatcher = AlertDispatcher(home: home, configuration: configuration, client: WebhookSink.client, logger: logger)
        let wakeup = WakeupSignal()
        let goals = GoalWatcher(store: store, clock: clock, logger: logger)
        let allocation = AllocationWatcher(store: store, logger: logger)
        // Its own client: a snapshot computed from years of history may take seconds, and the
        // shared client's queue would hold every other watcher's request behind it.
        let netWorth = NetWorthSnapshotter(
            store: AsyncRequestClient(.store, home: home, context: context, timing: .netWorthSnapshots), clock: clock, logger: logger)
        var consumer = AlertsChangeConsumer(
            log: LoggingChangeConsumer(logger: logger), logger: logger, budgets: BudgetWatcher(store: store, clock: clock, logger: logger), goals: goals,
            allocation: allocation, netWorth: netWorth, wakeup: wakeup,
            deliver: { alert in await dispatcher.dispatch(alert) }, replayed: ReplayedHistory())
        if dispatcher.wantsTransactions {
            consumer.deliverTransaction = { change in await dispatcher.dispatch(transaction: change) }
        }
        let follower = ChangeFollower(service: Self.service, home: home, context: context, consumer: consumer, logger: logger)
        let schedule = AlertsSchedule(
            recurring: RecurringScheduler(store: store, clock: clock, logger: logger), goals: goals,
            staleRates: StaleRateWatcher(store: store, logger: logger), wakeup: wakeup, ready: follower.ready, logger: logger)
        services = [
            .init(service: follower),
            .init(service: AlertDeliveryService(dispatcher: dispatcher)),
            .init(service: schedule),
            .init(service: AllocationSchedule(watcher: allocation, ready: follower.ready)),
            .init(service: NetWorthSchedule(snapshotter: netWorth, ready: follower.ready)),
        ]
        logger.info("sinks", metadata: [
            "commandHooks": "\(configuration.commandHooks.map(\.name).joined(separator: ", "))",
            "webhooks": "\(configuration.webhooks.map(\.name).joined(separator: ", "))",
        ])
    }
}
