import Synchronization

/// The newest change-log seq published so far, shared between the request loop (which advances
/// it) and the heartbeat task (which announces it).
final class PublishedSequence: Sendable {
    private let value: Mutex<Int64>

    init(_ initial: Int64) { value = Mutex(initial) }

    var current: Int64 { value.withLock { $0 } }

    func advance(to seq: Int64) { value.withLock { $0 = max($0, seq) } }
}
