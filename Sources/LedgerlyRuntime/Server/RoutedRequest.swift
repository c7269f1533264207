import FoundationEssentials

/// A request as a ROUTER socket delivers it: routing frames (peer identity, and the empty
/// delimiter a REQ or well-behaved DEALER sends), then exactly one JSON frame.
public struct RoutedRequest: Sendable {
    public let route: [Data]
    public let payload: Data?

    /// Splits a ROUTER message. `payload` is nil when there is not exactly one frame after the
    /// delimiter: such a message is answered with `malformed`.
    public init(frames: [Data]) {
        if let delimiter = frames.firstIndex(where: \.isEmpty) {
            route = Array(frames[...delimiter])
            let rest = frames[(delimiter + 1)...]
            payload = rest.count == 1 ? rest.first : nil
        } else {
            // A DEALER that sent no delimiter: identity, then the payload.
            route = Array(frames.prefix(1))
            payload = frames.count == 2 ? frames[1] : nil
        }
    }

    /// The frames to send back for `reply`.
    public func replyFrames(_ reply: Data) -> [Data] { route + [reply] }
}
