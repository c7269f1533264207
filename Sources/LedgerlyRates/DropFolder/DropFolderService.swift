import LedgerlyRuntime
import ServiceLifecycle

/// Scans the drop folder every `interval` and hands what it finds to the store, reporting each
/// file's outcome before the next file is read, so the store's status is in order.
///
/// Starts only once the follower holds the instance lock (`ready`): a second instance must not
/// move a user's file.
struct DropFolderService: Service {
    let watcher: DropFolderWatcher
    /// Reports one file's outcome (the rates' or the prices' feed).
    let record: @Sendable (DropFolderOutcome) async -> Void
    let interval: Duration
    let ready: ReadySignal

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            await watcher.run(every: interval, onOutcome: record)
        }
    }
}
