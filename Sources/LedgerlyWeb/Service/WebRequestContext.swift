import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the peer's IP address, which the pairing page's rate limit
/// counts attempts by (D593).
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connecting address ("10.0.0.7", "::1"), "unknown" when the socket does not say.
    public let remoteAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
