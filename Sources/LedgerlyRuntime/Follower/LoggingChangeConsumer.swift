import LedgerlyProtocol
import Logging

/// A consumer that records each change it is handed, in order: what the rates and alerts
/// services do with store changes until their own engines plug in. The "handled event" lines
/// are also how the end-to-end tests check that nothing is skipped or repeated.
public struct LoggingChangeConsumer: ChangeConsumer {
    private let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ event: ChangeEvent) async throws {
        logger.info("handled event", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "entity": "\(event.entity)", "id": "\(event.id)"])
    }
}
