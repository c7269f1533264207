import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// What the alerts service does with store changes. For now it records each change it sees;
/// budget, goal and stale-rate evaluation will plug in here.
public struct AlertsChangeConsumer: ChangeConsumer {
    private let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ event: ChangeEvent) async throws {
        logger.info("handled event", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "entity": "\(event.entity)", "id": "\(event.id)"])
    }
}
