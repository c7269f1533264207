import LedgerlyProtocol

extension StoreRouteTable {
    /// Imports, exports, and restoring an export into a new ledger.
    mutating func addImportRoutes() {
        write(TransactionImportRequest.self, ImportHandlers.importBatch)
        write(TransactionImportUndoRequest.self, ImportHandlers.undo)
        readEncoded(TransactionExportRequest.self, TransactionExportHandler.export)
        write(LedgerRestoreBeginRequest.self, RestoreHandlers.begin)
        write(LedgerRestoreFinishRequest.self, RestoreHandlers.finish)
    }
}
