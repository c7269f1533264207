import LedgerlyRuntime
import Logging

/// `ledgerly-rates`. For now it follows the store's change log and records what it sees; the
/// rates engine (providers, refresh schedule) will consume the same changes to know which
/// currency pairs wallets need.
public enum RatesService {
    public static let name = "ledgerly-rates"

    public static func make(home: LedgerlyHome, logger: Logger) -> ChangeFollower {
        ChangeFollower(service: name, statusEndpoint: home.ratesCommandEndpoint, home: home, consumer: LoggingChangeConsumer(logger: logger), logger: logger)
    }
}
