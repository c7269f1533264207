import LedgerlyProtocol
import Logging

/// Somewhere an alert goes. `deliver` never throws: a sink logs its own failures, so one broken
/// sink never stops the others (or the evaluation that raised the alert).
public protocol AlertSink: Sendable {
    /// A short name for logs ("log", the hook's or webhook's configured name).
    var name: String { get }
    func deliver(_ alert: AlertRecord) async
}

/// Always on: one info line `alert` per alert, with its kind, key and message as metadata.
public struct LogAlertSink: AlertSink {
    public let name = "log"
    private let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func deliver(_ alert: AlertRecord) async {
        logger.info("alert", metadata: [
            "kind": "\(alert.kind.rawValue)",
            "key": "\(alert.key)",
            "message": "\(alert.message)",
            "alert.id": "\(alert.id)",
        ])
    }
}
