import LedgerlyProtocol
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
    /// Wakes the recurring schedule when a template is added or changed.
    let wakeup: WakeupSignal
    let deliver: @Sendable (AlertRecord) async -> Void

    /// A store that cannot be reached or fails for a moment (busy, disk) fails the event, which
    /// is offered again. A change this version cannot read, or an evaluation the store refuses as
    /// invalid, is logged and passed over, so one bad change cannot stop every alert after it.
    func handle(_ event: ChangeEvent) async throws {
        do {
            if event.type == ChangeEventType.alertRaised.rawValue {
                await deliver(try event.data.decode(AlertRecord.self))
            } else {
                if event.entity == "recurring" || event.type == ChangeEventType.setupCompleted.rawValue { wakeup.notify() }
                try await budgets.handle(event)
                try await goals.handle(event)
            }
        } catch let error as DecodingError {
            logger.error("cannot read the change; passed over", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "error": "\(error)"])
        } catch let error as ClientError {
            guard case .rejected(let body) = error, [.validationFailed, .notFound].contains(body.code) else { throw error }
            logger.error("could not evaluate the change; passed over", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "error": "\(body)"])
        }
        try await log.handle(event)
    }

    func storeReplaced(oldEpoch: String?, newEpoch: String) async {
        await budgets.reset()
        await goals.reset()
    }
}
