import Foundation
import LedgerlyProtocol
import LedgerlyRuntime

extension StoreRouteTable {
    /// `status`, answered by every service; the store's also tells whether setup is complete.
    mutating func addServiceRoutes(startedAt: String) {
        read(StatusRequest.self) { _, context in
            StatusReply(service: LedgerlyService.store.name, version: LedgerlyVersion.current, pid: getpid(), startedAt: startedAt,
                        lastSeq: try EventHandlers.lastSeq(context.db), epoch: context.epoch, setupCompleted: try SettingsHandlers.isSetupCompleted(context.db))
        }
        answeredElsewhere(RatesRefreshRequest.self, answeredBy: "ledgerly-rates on its own socket (rates.cmd)")
    }
}
