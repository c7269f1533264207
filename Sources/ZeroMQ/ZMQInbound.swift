import FoundationEssentials

/// A message received on one of a `ZMQSocketThread`'s sockets.
public struct ZMQInbound: Sendable {
    /// Index of the socket in the array the thread's setup returned.
    public let socket: Int
    public let frames: [Data]
}
