import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// Runs the allocation checks: at start, at once after changes that move the allocation (many
/// changes in a row give one check), and every `AllocationWatcher.scheduledInterval` otherwise.
/// Its own service, so a slow check (a large portfolio) never holds up the follower or the
/// recurring schedule. Starts only once the follower holds the instance lock (`ready`).
struct AllocationSchedule: Service {
    let watcher: AllocationWatcher
    let ready: ReadySignal

    /// How long the schedule sleeps when nothing wakes it; a failed check is retried this often.
    static let pollInterval: Duration = .seconds(5)

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            while !Task.isCancelled {
                await watcher.checkIfDue()
                await watcher.wakeup.wait(upTo: Self.pollInterval)
            }
        }
    }
}
