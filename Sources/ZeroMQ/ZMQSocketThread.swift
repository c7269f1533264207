import CZeroMQ
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Owns a set of sockets on one dedicated thread and bridges them to Swift concurrency.
///
/// libzmq sockets are not thread-safe, so every call on them happens on this thread. Each
/// received message first goes to the optional `handler`, which runs on this thread: a service
/// whose work is synchronous (the store's SQLite requests) answers there, with no hop to another
/// thread. Messages the handler does not take are delivered through the `inbound` async stream.
/// Messages to send are queued with `send(socket:frames:)` from any task and handed to the thread
/// through an eventfd wake-up, so the thread sleeps in `zmq_poll` instead of spinning.
public final class ZMQSocketThread: Sendable {
    /// Answers a message on the socket thread, or returns nil to pass it to `inbound`.
    public typealias Handler = @Sendable (ZMQInbound) -> [ZMQOutbound]?

    /// How long a closing socket may keep trying to deliver what is queued (a last reply).
    public static let closingLingerMilliseconds: Int32 = 500

    private struct State {
        var outbox: [ZMQOutbound] = []
        var stopRequested = false
        var exited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    public let name: String
    public let inbound: AsyncStream<ZMQInbound>
    private let inboundContinuation: AsyncStream<ZMQInbound>.Continuation
    private let handler: Handler?
    private let state = Mutex(State())
    private let wakeDescriptor: Int32

    private init(name: String, inboundLimit: Int, handler: Handler?) throws(ZMQError) {
        self.name = name
        self.handler = handler
        // Bounded: past the limit new messages are dropped, as libzmq itself does at its
        // high-water mark. Requesters retry; subscribers notice the gap and catch up.
        (inbound, inboundContinuation) = AsyncStream.makeStream(of: ZMQInbound.self, bufferingPolicy: .bufferingOldest(inboundLimit))
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard descriptor >= 0 else { throw ZMQError(function: "eventfd", code: errno) }
        wakeDescriptor = descriptor
    }

    deinit { Glibc.close(wakeDescriptor) }

    /// Starts the thread, runs `makeSockets` on it, and returns once the sockets are bound and
    /// connected, rethrowing what `makeSockets` threw (a bind failure, say).
    public static func start(
        name: String,
        context: ZMQContext,
        inboundLimit: Int = 10_000,
        handler: Handler? = nil,
        makeSockets: @escaping @Sendable (ZMQContext) throws -> [ZMQSocket]
    ) async throws -> ZMQSocketThread {
        let thread = try ZMQSocketThread(name: name, inboundLimit: inboundLimit, handler: handler)
        try await withCheckedThrowingContinuation { (ready: CheckedContinuation<Void, any Error>) in
            DetachedThread.start(name: name) {
                thread.run(context: context, makeSockets: makeSockets, ready: ready)
            }
        }
        return thread
    }

    /// Queues a multipart message for the socket at `socket`. Never blocks; a message for a peer
    /// that is gone, or beyond the high-water mark, is dropped by libzmq as its patterns specify.
    public func send(socket: Int, frames: [Data]) {
        let accepted = state.withLock { state -> Bool in
            guard !state.exited else { return false }
            state.outbox.append(ZMQOutbound(socket: socket, frames: frames))
            return true
        }
        if accepted { wake() }
    }

    /// Asks the thread to send what is queued, close its sockets and exit, and waits until it has.
    public func stop() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let alreadyExited = state.withLock { state -> Bool in
                if state.exited { return true }
                state.stopRequested = true
                state.exitWaiters.append(done)
                return false
            }
            if alreadyExited { done.resume() } else { wake() }
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    private func drainWake() {
        var value: UInt64 = 0
        _ = Glibc.read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
    }

    private func run(
        context: ZMQContext,
        makeSockets: @Sendable (ZMQContext) throws -> [ZMQSocket],
        ready: CheckedContinuation<Void, any Error>
    ) {
        let sockets: [ZMQSocket]
        do {
            sockets = try makeSockets(context)
        } catch {
            finish(sockets: [])
            ready.resume(throwing: error)
            return
        }
        ready.resume()

        var poller = ZMQPoller()
        for socket in sockets { poller.add(socket) }
        poller.add(fileDescriptor: wakeDescriptor)

        /// Bounds how many messages one socket may deliver per turn, so a flood on one socket
        /// cannot starve the others or the outbox.
        let turnLimit = 256
        while true {
            guard let readiness = try? poller.poll(timeoutMilliseconds: -1) else { break }
            if readiness[sockets.count] { drainWake() }

            let stopRequested = state.withLock { $0.stopRequested }
            deliver(takeOutbox(), on: sockets)
            if stopRequested { break }

            for (index, socket) in sockets.enumerated() where readiness[index] {
                for _ in 0..<turnLimit {
                    guard let frames = try? socket.receive(dontWait: true) else { break }
                    let message = ZMQInbound(socket: index, frames: frames)
                    if let replies = handler?(message) {
                        // What other threads queued before the handler answered goes out first,
                        // so a service that answers both here and from another thread keeps
                        // its messages in the order it made them (the store's events in seq order).
                        deliver(takeOutbox(), on: sockets)
                        deliver(replies, on: sockets)
                    } else {
                        inboundContinuation.yield(message)
                    }
                }
            }
        }
        finish(sockets: sockets)
    }

    private func takeOutbox() -> [ZMQOutbound] {
        state.withLock { state in
            defer { state.outbox.removeAll() }
            return state.outbox
        }
    }

    private func deliver(_ messages: [ZMQOutbound], on sockets: [ZMQSocket]) {
        for message in messages where sockets.indices.contains(message.socket) {
            // A send that would block (peer at its high-water mark) drops the message;
            // requesters time out and retry, subscribers catch up from the change log.
            _ = try? sockets[message.socket].send(message.frames, dontWait: true)
        }
    }

    /// Stops accepting messages, sends what was queued meanwhile, closes the sockets (each may
    /// linger briefly to deliver a last reply), then ends the stream and wakes `stop()` callers.
    private func finish(sockets: [ZMQSocket]) {
        let remaining = state.withLock { state in
            state.exited = true
            defer { state.outbox.removeAll() }
            return state.outbox
        }
        deliver(remaining, on: sockets)
        for socket in sockets {
            try? socket.setOption(ZMQ_LINGER, Self.closingLingerMilliseconds)
            socket.close()
        }
        inboundContinuation.finish()
        let waiters = state.withLock { state in
            defer { state.exitWaiters.removeAll() }
            return state.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
