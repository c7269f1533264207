import FoundationEssentials
import Glibc

/// Pages passed from a fetching thread to the thread that writes them, at most one waiting: the
/// fetcher asks for the next page while the writer works on this one, and never runs further
/// ahead, so an export holds at most three pages at a time (one being written, one waiting, one
/// arriving).
final class PageHandoff<Page: Sendable>: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = ConditionLock()
    private var waiting: Result<Page, any Error>?
    private var stopped = false

    /// Hands over the next page (or the failure to get it), waiting while the previous one has
    /// not been taken; false when the writer has stopped and wants no more.
    func put(_ result: Result<Page, any Error>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waiting != nil && !stopped { condition.wait() }
        guard !stopped else { return false }
        waiting = result
        condition.broadcast()
        return true
    }

    /// The next page, waiting for it; nil once the handoff is stopped with nothing waiting (a
    /// stage between two others then stops too).
    func take() -> Result<Page, any Error>? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil && !stopped { condition.wait() }
        guard let result = waiting else { return nil }
        waiting = nil
        condition.broadcast()
        return result
    }

    /// The writer is done (or failed): the fetcher stops at its next page.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
