import LedgerlyProtocol
import LedgerlyRuntime

/// Any change in the ledger may be something to push: it wakes the schedule. (The events a
/// `sync.apply` logs wake it too; that round finds nothing to send.)
struct SyncChangeConsumer: ChangeConsumer {
    let wakeup: WakeupSignal

    func handle(_ event: ChangeEvent) async throws { wakeup.notify() }
}
