import ArgumentParser
import LedgerlyProtocol
import LedgerlyRuntime

/// The exit codes scripts can rely on; listed in `ledgerly --help`.
enum ExitStatus: Int32 {
    case success = 0
    /// The store refused the request: invalid input, not found, conflict.
    case refused = 1
    /// Ledgerly is not set up: run `ledgerly setup`.
    case setupRequired = 2
    /// A service did not answer in time.
    case unavailable = 3
    /// An unexpected reply or internal error.
    case failure = 4
    /// `sync now`: ledgerly-sync answered, but the sync hub could not be reached (down,
    /// restarting, the network gone): not 3, which says a Ledgerly service did not answer (D423).
    case hubUnreachable = 5
    /// Bad command-line arguments (swift-argument-parser's validation errors).
    case usage = 64

    static let helpText = """
        EXIT CODES:
          0   success
          1   the request was refused (invalid input, not found, conflict)
          2   Ledgerly is not set up yet: run `ledgerly setup`
          3   a service did not answer (is Ledgerly running? see `ledgerly status`)
          4   unexpected failure
          5   the sync hub could not be reached (`sync now`; ledgerly-sync answered)
          64  bad command-line arguments
        """

    static func of(_ error: ClientError) -> ExitStatus {
        switch error {
        case .unavailable, .notRunning, .cancelled: .unavailable
        case .rejected(let body):
            switch body.code {
            case .setupRequired: .setupRequired
            case .validationFailed, .notFound, .conflict: .refused
            case .unavailable: .unavailable
            default: .failure
            }
        case .invalidReply, .transport: .failure
        }
    }
}
