import CZeroMQ

/// A libzmq context. The context itself is thread-safe (libzmq guarantees it), unlike sockets.
///
/// It is terminated when the last reference goes away. Every `ZMQSocket` keeps its context alive
/// and closes itself first, so `zmq_ctx_term` never blocks on a socket that is still open.
public final class ZMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    public init() throws(ZMQError) {
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        self.handle = handle
    }

    deinit {
        while zmq_ctx_term(handle) == -1 && zmq_errno() == EINTR {}
    }

    /// libzmq's version as "major.minor.patch".
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
