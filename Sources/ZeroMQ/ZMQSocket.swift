import CZeroMQ
import Glibc
import FoundationEssentials

/// A libzmq socket. Not thread-safe: it must be used from one thread at a time, which is why it
/// is not `Sendable` (the same rule GRDB applies to its `Database` connection). Long-lived sockets
/// live on a `ZMQSocketThread`; a short-lived client may own one on its own thread.
public final class ZMQSocket {
    public let type: ZMQSocketType
    private let context: ZMQContext
    private var handle: UnsafeMutableRawPointer?
    /// The `ipc://` paths this socket bound, removed when it closes.
    private var boundPaths: [String] = []

    public init(context: ZMQContext, type: ZMQSocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw ZMQError.last("zmq_socket")
        }
        self.context = context
        self.type = type
        self.handle = handle
        // Never let a pending message keep the process (or zmq_ctx_term) waiting on close.
        try setOption(ZMQ_LINGER, Int32(0))
    }

    deinit { close() }

    /// Closes the socket; later calls on it throw `ENOTSOCK`. The socket files it bound are
    /// removed, so a client can tell at once that nobody serves there (libzmq leaves them). Safe
    /// with the services' lock files: a new instance binds only after this one has closed and
    /// released its lock, so this never removes another process's socket. A killed process
    /// leaves its file, and its clients then wait out their tries.
    public func close() {
        if let handle {
            zmq_close(handle)
            self.handle = nil
            for path in boundPaths { unlink(path) }
            boundPaths = []
        }
    }

    var rawHandle: UnsafeMutableRawPointer? { handle }

    private func live(_ function: String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else { throw ZMQError(function: function, code: ENOTSOCK) }
        return handle
    }

    // MARK: Options

    public func setOption(_ option: Int32, _ value: Int32) throws(ZMQError) {
        let socket = try live("zmq_setsockopt")
        var value = value
        try zmqCheck("zmq_setsockopt") { zmq_setsockopt(socket, option, &value, MemoryLayout<Int32>.size) }
    }

    public func setOption(_ option: Int32, _ value: Int64) throws(ZMQError) {
        let socket = try live("zmq_setsockopt")
        var value = value
        try zmqCheck("zmq_setsockopt") { zmq_setsockopt(socket, option, &value, MemoryLayout<Int64>.size) }
    }

    public func setOption(_ option: Int32, _ bytes: [UInt8]) throws(ZMQError) {
        let socket = try live("zmq_setsockopt")
        try zmqCheck("zmq_setsockopt") {
            bytes.withUnsafeBytes { zmq_setsockopt(socket, option, $0.baseAddress, $0.count) }
        }
    }

    /// Subscribes a SUB socket to a topic prefix ("" for everything).
    public func subscribe(_ prefix: String) throws(ZMQError) {
        try setOption(ZMQ_SUBSCRIBE, Array(prefix.utf8))
    }

    /// Largest inbound message accepted; a peer sending more is disconnected (docs/architecture.md, reliability rule 7).
    public func setMaxMessageSize(_ bytes: Int64) throws(ZMQError) {
        try setOption(ZMQ_MAXMSGSIZE, bytes)
    }

    public func setHighWaterMarks(send: Int32, receive: Int32) throws(ZMQError) {
        try setOption(ZMQ_SNDHWM, send)
        try setOption(ZMQ_RCVHWM, receive)
    }

    // MARK: Endpoints

    public func bind(_ endpoint: String) throws(ZMQError) {
        let socket = try live("zmq_bind")
        try zmqCheck("zmq_bind(\(endpoint))") { zmq_bind(socket, endpoint) }
        if endpoint.hasPrefix("ipc://") { boundPaths.append(String(endpoint.dropFirst("ipc://".count))) }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        let socket = try live("zmq_connect")
        try zmqCheck("zmq_connect(\(endpoint))") { zmq_connect(socket, endpoint) }
    }

    // MARK: Messages

    /// Sends a multipart message. Returns `false` when `dontWait` is set and the send would block.
    @discardableResult
    public func send(_ frames: [Data], dontWait: Bool = false) throws(ZMQError) -> Bool {
        let socket = try live("zmq_send")
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
            if index < frames.count - 1 { flags |= ZMQ_SNDMORE }
            while true {
                let result = frame.withUnsafeBytes { zmq_send(socket, $0.baseAddress, $0.count, flags) }
                if result != -1 { break }
                let error = ZMQError.last("zmq_send")
                if error.isInterrupted { continue }
                // Only the first frame may be refused: once it is queued the rest follow atomically.
                if error.isWouldBlock && index == 0 { return false }
                throw error
            }
        }
        return true
    }

    /// Receives one multipart message. Returns `nil` when `dontWait` is set and none is waiting.
    public func receive(dontWait: Bool = false) throws(ZMQError) -> [Data]? {
        let socket = try live("zmq_msg_recv")
        var frames: [Data] = []
        while true {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            let flags: Int32 = (dontWait && frames.isEmpty) ? ZMQ_DONTWAIT : 0
            let size = zmq_msg_recv(&message, socket, flags)
            if size == -1 {
                let error = ZMQError.last("zmq_msg_recv")
                if error.isInterrupted { continue }
                if error.isWouldBlock && frames.isEmpty { return nil }
                throw error
            }
            if let data = zmq_msg_data(&message), size > 0 {
                frames.append(Data(bytes: data, count: Int(size)))
            } else {
                frames.append(Data())
            }
            if zmq_msg_more(&message) == 0 { return frames }
        }
    }

    /// Waits up to `timeoutMilliseconds` for a message to arrive; `true` when one is ready.
    public func waitForInput(timeoutMilliseconds: Int) throws(ZMQError) -> Bool {
        var poller = ZMQPoller()
        poller.add(self)
        let ready = try poller.poll(timeoutMilliseconds: timeoutMilliseconds)
        return ready[0]
    }
}

@available(*, unavailable)
extension ZMQSocket: Sendable {}
