import FoundationEssentials

/// The four Ledgerly services, by the name each one goes by everywhere: its executable, its
/// `status` reply, its log label, its lock file and its cursor file. One definition, so a name
/// or an endpoint cannot drift between the service that binds it and the clients that connect.
public enum LedgerlyService: String, CaseIterable, Sendable {
    case store = "ledgerly-store"
    case rates = "ledgerly-rates"
    case alerts = "ledgerly-alerts"
    case sync = "ledgerly-sync"

    /// The executable's name, as clients and messages print it.
    public var name: String { rawValue }

    /// The socket the service answers requests on (`status`, and the store's and rates'
    /// own requests).
    public func commandEndpoint(in home: LedgerlyHome) -> String {
        switch self {
        case .store: home.storeCommandEndpoint
        case .rates: home.ratesCommandEndpoint
        case .alerts: home.alertsCommandEndpoint
        case .sync: home.syncCommandEndpoint
        }
    }

    /// The lock file taken before binding (reliability rule 5): one instance per home. It is in
    /// the data directory's `run/` even when the sockets are in `$XDG_RUNTIME_DIR`: the lock guards
    /// the database, which does not move with the environment, so two stores started with and
    /// without that variable (systemd and a cron job, an old version and a new one) still meet.
    public func lockPath(in home: LedgerlyHome) -> String {
        home.lockDirectory.appendingPathComponent("\(rawValue).lock").path
    }
}
