import LedgerlyProtocol
import ZeroMQ

/// Why a request did not get an `.ok` reply. Each case reads as a sentence in a terminal.
public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// No reply within the timeout, after every retry: the service is down or stuck.
    case unavailable(service: String, endpoint: String, attempts: Int, timeoutMilliseconds: Int)
    /// The service's `ipc://` socket file does not exist: it is not running, so nothing waits.
    case notRunning(service: String, endpoint: String)
    /// The caller gave up waiting (its task was cancelled: a service shutting down).
    case cancelled(service: String)
    /// The service answered with an error reply.
    case rejected(ErrorBody)
    /// The reply was not a message this client understands.
    case invalidReply(String)
    case transport(ZMQError)

    public var description: String {
        switch self {
        case .unavailable(let service, let endpoint, let attempts, let timeout):
            let tries = attempts == 1 ? "" : " (\(attempts) tries of \(timeout) ms)"
            return "\(service) is not answering at \(endpoint)\(tries)"
        case .notRunning(let service, let endpoint):
            return "\(service) is not running (no socket at \(endpoint.dropFirst("ipc://".count)))"
        case .cancelled(let service):
            return "the request to \(service) was cancelled"
        case .rejected(let error):
            if let field = error.field { return "\(error.message) [\(error.code.rawValue), field \(field)]" }
            return "\(error.message) [\(error.code.rawValue)]"
        case .invalidReply(let reason):
            return "unexpected reply: \(reason)"
        case .transport(let error):
            return "messaging failed: \(error)"
        }
    }

    /// This failure as an error reply body, for a service passing it on to its own client.
    public var errorBody: ErrorBody {
        switch self {
        case .rejected(let body): body
        case .unavailable, .notRunning: ErrorBody(code: .unavailable, message: description)
        case .cancelled: ErrorBody(code: .unavailable, message: description)
        case .invalidReply, .transport: ErrorBody(code: .internal, message: description)
        }
    }

    /// The error reply's code, if the service answered with one.
    public var errorCode: ErrorCode? {
        if case .rejected(let body) = self { return body.code }
        return nil
    }
}
