import LedgerlyProtocol
import Synchronization
import LedgerlyRuntime
import Logging

/// What the alerts service does with each change, in order: logs it, evaluates what it touches
/// (budgets), and hands every recorded alert (`alert.raised`, whoever raised it) to the sinks.
/// Alerts reach the sinks from the change log, not from the evaluation that raised them, so an
/// alert recorded just before a crash is still delivered after the restart.
struct AlertsChangeConsumer: ChangeConsumer {
    let log: LoggingChangeConsumer
    let logger: Logger
    let budgets: BudgetWatcher
    let goals: GoalWatcher
    /// Told of changes that move the allocation; it checks drift on its own schedule.
    let allocation: AllocationWatcher
    /// Woken when setup is completed, when the database is replaced, and by a write dated in an
    /// ended month (D403).
    let netWorth: NetWorthSnapshotter
    /// Wakes the recurring schedule when a template is added or changed.
    let wakeup: WakeupSignal
    let deliver: @Sendable (AlertRecord) async -> Void
    /// Hands a change to transactions to the sinks that take them; nil when none does.
    var deliverTransaction: (@Sendable (ChangeEvent) async -> Void)?

    /// A store that cannot be reached or fails for a moment (busy, disk) fails the event, which
    /// is offered again. A change this version cannot read, or an evaluation the store refuses as
    /// invalid, is logged and passed over, so one bad change cannot stop every alert after it.
    /// The history of a replaced database, whose alerts are not delivered again.
    let replayed: ReplayedHistory

    func handle(_ event: ChangeEvent) async throws {
        do {
            let change = try event.payload()
            switch change {
            case .alertRaised(let alert):
                // Alerts already in a restored database's history were delivered when they were
                // raised; replaying it re-evaluates, but only alerts raised now reach the sinks.
                guard !replayed.contains(event) else { return try await log.handle(event) }
                await deliver(alert)
            case .setupCompleted:
                wakeup.notify()
                await netWorth.wake()
            case .recurringCreated, .recurringUpdated, .recurringDeleted:
                wakeup.notify()
            default:
                try await budgets.handle(change)
                try await goals.handle(change)
                await allocation.handle(change)
                await netWorth.changed(change)
            }
        } catch let error as DecodingError {
            logger.error("cannot read the change; passed over", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "error": "\(error)"])
        } catch let error as ClientError {
            guard case .rejected(let body) = error, [.validationFailed, .notFound].contains(body.code) else { throw error }
            logger.error("could not evaluate the change; passed over", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "error": "\(body)"])
        }
        // Changes to transactions reach the sinks that asked for them once the evaluation above
        // is done (a failure there offers the change again, which must not run a hook twice), and
        // not again when a restored database's history is replayed, as alerts.
        if let deliverTransaction, SinkNotice.transactionTypes.contains(event.type), !replayed.contains(event) {
            await deliverTransaction(event)
        }
        try await log.handle(event)
    }

    func storeReplaced(oldEpoch: String?, newEpoch: String, lastSeq: Int64) async {
        // A first start (no old epoch) delivers as before; a replaced database's own past does not.
        if oldEpoch != nil { replayed.set(epoch: newEpoch, upTo: lastSeq) }
        await budgets.reset()
        await goals.reset()
        await allocation.reset()
        await netWorth.wake()
    }
}

/// Which events belong to the history of a database that replaced the one the service followed
/// (a restore): its `alert.raised` events are not delivered to the sinks again during the replay.
/// Kept in memory: a restart in the middle of that replay delivers the rest (said in docs/alerts.md).
final class ReplayedHistory: Sendable {
    private let window = Mutex<(epoch: String, lastSeq: Int64)?>(nil)

    func set(epoch: String, upTo lastSeq: Int64) { window.withLock { $0 = (epoch, lastSeq) } }

    func contains(_ event: ChangeEvent) -> Bool {
        window.withLock { window in
            guard let window else { return false }
            return event.epoch == window.epoch && event.seq <= window.lastSeq
        }
    }
}
