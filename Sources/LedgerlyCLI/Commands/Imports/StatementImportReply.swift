import LedgerlyProtocol

/// What `ledgerly import csv|ofx|camt|qif --json` prints: the store's `tx.import` reply and the
/// notes the import printed on standard error (rows left out, sections passed over, splits
/// imported whole, transfer parts), so that a script reading only standard output learns all
/// that a person at a terminal is told. A statement with no transaction to import prints this
/// too, `imported` 0 and without `importId` (nothing was sent to the store, so there is nothing
/// to undo), never a sentence of plain text.
struct StatementImportReply: Codable, Hashable, Sendable {
    /// The id to give `ledgerly import undo`; absent when nothing was sent to the store.
    var importId: String?
    var imported: Int
    var duplicates: [TransactionImportDuplicate]
    var dryRun: Bool
    /// Every note printed on standard error, in order, as printed there (after `note: `).
    var notes: [String]

    init(_ reply: TransactionImportReply, notes: [String]) {
        importId = reply.importId
        imported = reply.imported
        duplicates = reply.duplicates
        dryRun = reply.dryRun
        self.notes = notes
    }

    /// The reply for a statement that holds no transaction: nothing imported, nothing sent.
    init(nothingIn notes: [String], dryRun: Bool) {
        importId = nil
        imported = 0
        duplicates = []
        self.dryRun = dryRun
        self.notes = notes
    }
}
