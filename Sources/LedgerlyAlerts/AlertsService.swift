import LedgerlyRuntime
import Logging

/// `ledgerly-alerts`. For now it follows the store's change log and records what it sees;
/// budget, goal and stale-rate evaluation will consume the same changes.
public enum AlertsService {
    public static let name = "ledgerly-alerts"

    public static func make(home: LedgerlyHome, logger: Logger) -> ChangeFollower {
        ChangeFollower(service: name, statusEndpoint: home.alertsCommandEndpoint, home: home, consumer: LoggingChangeConsumer(logger: logger), logger: logger)
    }
}
