import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// Runs the net-worth snapshots: at start, then every `NetWorthSnapshotter.pollInterval` or at
/// once when woken. Its own service with its own store client, so a long back-fill (years of
/// months, each a net worth computed from the whole history) never holds up the follower, the
/// recurring schedule or the allocation checks. Starts only once the follower holds the instance
/// lock (`ready`): a second instance started by mistake must fail before it takes anything.
struct NetWorthSchedule: Service {
    let snapshotter: NetWorthSnapshotter
    let ready: ReadySignal

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            while !Task.isCancelled {
                await snapshotter.runIfDue()
                await snapshotter.wakeup.wait(upTo: NetWorthSnapshotter.pollInterval)
            }
        }
    }
}
