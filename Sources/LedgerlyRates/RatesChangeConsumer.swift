import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// What the rates service does with store changes. For now it records each change it sees;
/// the rates engine will react to wallets in new currencies and base-currency changes here.
public struct RatesChangeConsumer: ChangeConsumer {
    private let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ event: ChangeEvent) async throws {
        logger.info("handled event", metadata: ["seq": "\(event.seq)", "type": "\(event.type)", "entity": "\(event.entity)", "id": "\(event.id)"])
    }
}
