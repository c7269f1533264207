import LedgerlyProtocol

extension StoreRouteTable {
    /// Imports, exports, and restoring an export into a new ledger.
    mutating func addImportRoutes() {
        write(TransactionImportRequest.self, planning: ImportPlan.make) { request, plan, context in
            try ImportHandlers.importBatch(request, plan: plan, &context)
        }
        write(TransactionImportUndoRequest.self, ImportHandlers.undo)
        readEncoded(TransactionExportRequest.self, TransactionExportHandler.export)
        write(LedgerRestoreBeginRequest.self, RestoreHandlers.begin)
        write(LedgerRestoreFinishRequest.self, RestoreHandlers.finish)
    }
}
