import Synchronization

/// Hands each change in the ledger (its seq) to every open `/events` stream. A stream that falls
/// behind keeps only the newest seq: a page refreshes once for many changes.
public final class ChangeBroadcaster: Sendable {
    private struct State {
        var next = 0
        var listeners: [Int: AsyncStream<Int64>.Continuation] = [:]
        var finished = false
    }

    private let state = Mutex(State())

    public init() {}

    /// A stream of seqs for one browser; it ends when the browser goes or the service stops.
    public func subscribe() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            state.next += 1
            state.listeners[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    public func publish(_ seq: Int64) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(seq) }
    }

    /// Ends every stream (at shutdown, so open pages do not hold the server up).
    public func finishAll() {
        let listeners = state.withLock { state in
            state.finished = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    public var listenerCount: Int { state.withLock { $0.listeners.count } }
}
