import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addBackupRoutes() {
        readPool(LedgerBackupRequest.self, BackupHandlers.backup)
    }
}
