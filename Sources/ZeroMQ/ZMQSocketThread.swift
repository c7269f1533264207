import Foundation
import Synchronization
import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// A message received on one of a `ZMQSocketThread`'s sockets.
public struct ZMQInbound: Sendable {
    /// Index of the socket in the array the thread's setup returned.
    public let socket: Int
    public let frames: [Data]
}

/// Owns a set of sockets on one dedicated thread and bridges them to Swift concurrency.
///
/// libzmq sockets are not thread-safe, so every call on them happens on this thread. Received
/// messages are delivered through the `inbound` async stream; messages to send are queued with
/// `send(socket:frames:)` from any task and handed to the thread through an eventfd wake-up,
/// so the thread sleeps in `zmq_poll` instead of spinning.
public final class ZMQSocketThread: Sendable {
    private struct State {
        var outbox: [(socket: Int, frames: [Data])] = []
        var stopRequested = false
        var exited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    public let name: String
    public let inbound: AsyncStream<ZMQInbound>
    private let inboundContinuation: AsyncStream<ZMQInbound>.Continuation
    private let state = Mutex(State())
    private let wakeDescriptor: Int32

    private init(name: String) throws(ZMQError) {
        self.name = name
        (inbound, inboundContinuation) = AsyncStream.makeStream(of: ZMQInbound.self)
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
        makeSockets: @escaping @Sendable (ZMQContext) throws -> [ZMQSocket]
    ) async throws -> ZMQSocketThread {
        let thread = try ZMQSocketThread(name: name)
        try await withCheckedThrowingContinuation { (ready: CheckedContinuation<Void, any Error>) in
            let worker = Thread {
                thread.run(context: context, makeSockets: makeSockets, ready: ready)
            }
            worker.name = name
            worker.start()
        }
        return thread
    }

    /// Queues a multipart message for the socket at `socket`. Never blocks; a message for a peer
    /// that is gone, or beyond the high-water mark, is dropped by libzmq as its patterns specify.
    public func send(socket: Int, frames: [Data]) {
        let accepted = state.withLock { state -> Bool in
            guard !state.exited else { return false }
            state.outbox.append((socket, frames))
            return true
        }
        if accepted { wake() }
    }

    /// Asks the thread to close its sockets and exit, and waits until it has.
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
        var sockets: [ZMQSocket]
        do {
            sockets = try makeSockets(context)
        } catch {
            finish()
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
        loop: while true {
            let readiness: [Bool]
            do {
                readiness = try poller.poll(timeoutMilliseconds: -1)
            } catch {
                break loop
            }
            if readiness[sockets.count] { drainWake() }

            let (outbox, stopRequested) = state.withLock { state in
                defer { state.outbox.removeAll() }
                return (state.outbox, state.stopRequested)
            }
            for message in outbox where sockets.indices.contains(message.socket) {
                // A send that would block (peer at its high-water mark) drops the message;
                // requesters time out and retry, subscribers catch up from the change log.
                _ = try? sockets[message.socket].send(message.frames, dontWait: true)
            }
            if stopRequested { break loop }

            for (index, socket) in sockets.enumerated() where readiness[index] {
                for _ in 0..<turnLimit {
                    guard let frames = try? socket.receive(dontWait: true) else { break }
                    inboundContinuation.yield(ZMQInbound(socket: index, frames: frames))
                }
            }
        }
        for socket in sockets { socket.close() }
        sockets.removeAll()
        finish()
    }

    private func finish() {
        inboundContinuation.finish()
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.exitWaiters.removeAll() }
            return state.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
