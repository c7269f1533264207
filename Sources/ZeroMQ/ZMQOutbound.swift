import FoundationEssentials

/// A message to send on one of a `ZMQSocketThread`'s sockets.
public struct ZMQOutbound: Sendable {
    /// Index of the socket in the array the thread's setup returned.
    public let socket: Int
    public let frames: [Data]

    public init(socket: Int, frames: [Data]) {
        self.socket = socket
        self.frames = frames
    }
}
