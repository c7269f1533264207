/// Why a harness gave up: what it waited for, or which command failed and what it said.
public enum HarnessError: Error, CustomStringConvertible {
    case timedOut(String)
    case commandFailed(String, String)

    public var description: String {
        switch self {
        case .timedOut(let what): "timed out waiting for \(what)"
        case .commandFailed(let command, let stderr): "\(command) failed: \(stderr)"
        }
    }
}
