import CZeroMQ

/// An error reported by libzmq, carrying the C function that failed so a log line says where.
///
/// Modeled on swift-nio's errno wrapper: `EINTR` is retried by the callers, `EAGAIN` is reported
/// as "would block" (a `nil` result) by the non-blocking calls, anything else is thrown.
public struct ZMQError: Error, CustomStringConvertible, Sendable, Equatable {
    public let function: String
    public let code: Int32

    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    /// Builds the error from the calling thread's `zmq_errno()`.
    public static func last(_ function: String) -> ZMQError {
        ZMQError(function: function, code: zmq_errno())
    }

    public var description: String {
        "\(function) failed: \(String(cString: zmq_strerror(code))) (errno \(code))"
    }

    public var isWouldBlock: Bool { code == EAGAIN }
    public var isInterrupted: Bool { code == EINTR }
}

/// Runs a libzmq call that returns -1 on failure, retrying on `EINTR`.
@discardableResult
func zmqCheck(_ function: String, _ body: () -> Int32) throws(ZMQError) -> Int32 {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = ZMQError.last(function)
        if error.isInterrupted { continue }
        throw error
    }
}
