import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// Runs a round when the ledger changes and every `interval` otherwise; after a failed round it
/// waits longer each time (doubling up to `longestWait`), so a hub that is down is not hammered,
/// and a change made meanwhile waits for the next attempt rather than starting one.
struct SyncSchedule: Service {
    let round: SyncRound
    let wakeup: WakeupSignal
    let ready: ReadySignal
    let interval: Duration
    let longestWait: Duration

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            var wait = interval
            while !Task.isCancelled {
                let outcome = await round.run()
                if let outcome, outcome.error != nil {
                    wait = min(wait * 2, longestWait)
                    try? await Task.sleep(for: wait)
                } else {
                    wait = interval
                    await wakeup.wait(upTo: interval)
                }
            }
        }
    }
}
