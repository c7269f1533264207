import FoundationEssentials
import Synchronization

/// Set once, awaited by many: the follower sets it when it holds its instance lock and its
/// sockets are bound, and the services beside it (schedules, the drop folder) wait for it before
/// they post, fetch or move a file, so a second instance started by mistake fails before it does
/// anything. Waiters resume the moment it is set (no polling) and give up when cancelled.
public final class ReadySignal: Sendable {
    private struct State {
        var isSet = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var isSet: Bool { state.withLock { $0.isSet } }

    /// Sets the signal and resumes every waiter; later calls do nothing.
    public func set() {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.isSet else { return [] }
            state.isSet = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.resume(returning: true) }
    }

    /// Returns true once the signal is set, or false as soon as the calling task is cancelled
    /// (at shutdown, or when the service that would set it failed and ended the group).
    public func wait() async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.isSet { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }
}
