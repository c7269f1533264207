import Synchronization

/// Wakes a schedule early: a change in the ledger (a wallet in a new currency, a new recurring
/// transaction) may make work due before the moment the schedule is sleeping towards. A wake-up
/// that arrives while nobody waits is kept for the next wait, so none is lost.
public final class WakeupSignal: Sendable {
    private let pending = Mutex(false)

    public init() {}

    public func notify() { pending.withLock { $0 = true } }

    /// Sleeps for `duration`, or less when `notify()` is called meanwhile (checked every 200 ms:
    /// schedules here are seconds to minutes apart, so that latency is invisible and the code
    /// stays simple).
    public func wait(upTo duration: Duration) async {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if pending.withLock({ flag in defer { flag = false }; return flag }) { return }
            try? await Task.sleep(for: min(.milliseconds(200), deadline - ContinuousClock.now))
        }
    }
}
