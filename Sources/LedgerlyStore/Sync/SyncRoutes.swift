import GRDB
import LedgerlyProtocol

extension StoreRouteTable {
    /// This device's side of sync. `sync.apply` may bring the settings of a ledger set up
    /// elsewhere: the setup gate opens once it has committed.
    mutating func addSyncRoutes() {
        write(SyncEnableRequest.self, SyncHandlers.enable)
        write(SyncDisableRequest.self, SyncHandlers.disable)
        write(SyncStampRequest.self, SyncHandlers.stamp)
        read(SyncOutboxRequest.self, SyncHandlers.outbox)
        write(SyncPushedRequest.self, SyncHandlers.pushed)
        write(SyncApplyRequest.self, SyncHandlers.apply, after: { environment in
            if (try? environment.database.pool.read(SettingsHandlers.isSetupCompleted)) == true { environment.setupGate.open() }
        })
        write(SyncReportRequest.self, SyncHandlers.report)
        read(SyncStatusRequest.self, SyncHandlers.status)
        answeredElsewhere(SyncConnectRequest.self, answeredBy: "ledgerly-sync on its own socket (sync.cmd)")
        answeredElsewhere(SyncNowRequest.self, answeredBy: "ledgerly-sync on its own socket (sync.cmd)")
        answeredElsewhere(SyncRekeyRequest.self, answeredBy: "ledgerly-sync on its own socket (sync.cmd)")
        answeredElsewhere(SyncDevicesRequest.self, answeredBy: "ledgerly-sync on its own socket (sync.cmd)")
    }
}
