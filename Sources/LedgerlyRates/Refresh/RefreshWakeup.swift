import Synchronization

/// Wakes the refresh schedule early: a change in the ledger (a wallet in a new currency, a new
/// base currency, a new interval) may make a refresh due before the one it is sleeping towards.
/// A wake-up that arrives while nobody waits is kept for the next wait, so none is lost.
final class RefreshWakeup: Sendable {
    private let pending = Mutex(false)

    func notify() { pending.withLock { $0 = true } }

    /// Sleeps for `duration`, or less when `notify()` is called meanwhile (checked every 200 ms:
    /// a refresh is minutes apart, so that latency is invisible and the code stays simple).
    func wait(upTo duration: Duration) async {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if pending.withLock({ flag in defer { flag = false }; return flag }) { return }
            try? await Task.sleep(for: min(.milliseconds(200), deadline - ContinuousClock.now))
        }
    }
}
