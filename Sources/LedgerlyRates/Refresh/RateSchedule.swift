import LedgerlyRuntime
import ServiceLifecycle

/// Refreshes each provider when it is due (the refresher says how long until the next one), or at
/// once when a change wakes it (a wallet in a new currency).
///
/// Starts only once the follower holds the instance lock (`ready`), so a second instance started
/// by mistake fails before it fetches anything.
struct RateSchedule: Service {
    let refresher: RateRefresher
    let wakeup: WakeupSignal
    let ready: ReadySignal

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            while !Task.isCancelled {
                let wait = await refresher.refreshDue()
                await wakeup.wait(upTo: wait)
            }
        }
    }
}
