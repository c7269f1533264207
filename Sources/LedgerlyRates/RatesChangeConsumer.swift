import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// What the rates service does with the store's changes: logs each (as every follower does) and
/// wakes the refresh schedule when a change can alter which currencies are in use, which assets
/// are priced, or how often to refresh. It only signals — a refresh never holds up following the change log.
struct RatesChangeConsumer: ChangeConsumer {
    /// The asset and trade events can put a new asset in the wanted list (held or watched).
    static let wakingTypes: Set<ChangeEventType> = [
        .walletCreated, .walletUpdated, .settingsUpdated, .setupCompleted, .assetCreated, .assetUpdated, .tradeRecorded, .tradeDeleted, .tradesImported,
    ]

    let log: LoggingChangeConsumer
    let wakeup: WakeupSignal

    func handle(_ event: ChangeEvent) async throws {
        try await log.handle(event)
        if let kind = event.kind, Self.wakingTypes.contains(kind) { wakeup.notify() }
    }
}
