import Synchronization

/// Lets a delivery worker sleep until its next attempt is due, and wakes it at once when new work
/// arrives. A `notify()` while nobody waits is kept for the next `wait`, so none is lost.
/// Meant for one waiter at a time (one worker per webhook).
final class DeliveryWakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var lastId: UInt64 = 0
    }

    private let state = Mutex(State())

    func notify() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        continuation?.resume()
    }

    /// Returns on `notify()`, after `duration` (nil: no limit), or when the task is cancelled.
    func wait(upTo duration: Duration?) async {
        let id = state.withLock { state in
            state.lastId &+= 1
            return state.lastId
        }
        let timer = Mutex<Task<Void, Never>?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return false
                }
                if ready {
                    continuation.resume()
                } else if let duration {
                    timer.withLock { $0 = Task { [self] in
                        try? await Task.sleep(for: duration)
                        release(id)
                    } }
                }
            }
        } onCancel: {
            release(id)
        }
        timer.withLock { $0?.cancel() }
    }

    /// Resumes the waiter `id`, if it still waits.
    private func release(_ id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        continuation?.resume()
    }
}
