import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.import` and `tx.import.undo`: transactions in, in bulk (`tx.export`, out: `TransactionExportHandler`).
///
/// A batch is one SQL transaction with one change-log row (`tx.imported`, summarising it), so a
/// million transactions load at SQLite's bulk speed and subscribers get one event per batch,
/// their cursors still exact (D65, docs/reports-import-export.md).
enum ImportHandlers {
    static let maximumKeyLength = 200

    /// `plan`: the items checked and converted when the batch was decoded (`ImportPlan`), used
    /// when still current.
    static func importBatch(_ request: TransactionImportRequest, plan: ImportPlan? = nil, _ context: inout WriteContext) throws -> TransactionImportReply {
        let importId = request.importId.trimmingCharacters(in: .whitespaces)
        guard !importId.isEmpty, importId.count <= maximumKeyLength else {
            throw LedgerError.invalid("body.importId must be 1 to \(maximumKeyLength) characters", field: .body("importId"))
        }
        guard (1...TransactionImportRequest.maximumItems).contains(request.items.count) else {
            throw LedgerError.invalid("a batch has 1 to \(TransactionImportRequest.maximumItems) items, got \(request.items.count)", field: .body("items"))
        }
        let dryRun = request.dryRun ?? false
        let db = context.db
        let before = context
        let writer = TransactionWriter(db: db)
        var imported = 0
        var duplicates: [TransactionImportDuplicate] = []
        // Ids up to this one existed before the batch: a duplicate of a later one is an earlier
        // item of this batch, which a dry run does not keep.
        let lastBefore = try TransactionRow.maxId(db)
        let current = plan.flatMap { $0.isCurrent(at: context.date) ? $0 : nil }
        let planned = current?.items
        // A dry run does everything (so duplicates within the file and every check are real),
        // then rolls back; its replies are remembered like any write's.
        try db.inSavepoint {
            if let current { try writer.addPlannedTotals(current.totals) }
            for (index, item) in request.items.enumerated() {
                do {
                    // Lines count from 1 (PROTOCOL.md §15): a line 0 or below would name no line of the file.
                    if let line = item.line, line < 1 {
                        throw LedgerError.invalid("line must be 1 or more, got \(line)", field: .root("item").member("line"))
                    }
                    if let key = item.importKey {
                        guard !key.isEmpty, key.count <= maximumKeyLength else {
                            throw LedgerError.invalid("importKey must be 1 to \(maximumKeyLength) characters", field: .root("item").member("importKey"))
                        }
                    }
                    // Lists the item as a duplicate when its key is already in the wallet.
                    func isDuplicate(inWallet walletId: Int64) throws -> Bool {
                        guard let key = item.importKey, let existing = try existingId(db, walletId: walletId, key: key) else { return false }
                        duplicates.append(TransactionImportDuplicate(line: item.line, importKey: key, existingId: dryRun && existing > lastBefore ? nil : existing))
                        return true
                    }
                    let plan = planned?[index]
                    let totalled = current?.totalled[index] ?? false
                    switch (item.transaction, item.transfer) {
                    case (let transaction?, nil):
                        if try isDuplicate(inWallet: transaction.walletId) { continue }
                        _ = try writer.insert(transaction, &context, importKey: item.importKey, importId: importId, kept: item.kept, planned: plan?.transaction(), totalled: totalled)
                    case (nil, let transfer?):
                        if try isDuplicate(inWallet: transfer.fromWalletId) { continue }
                        _ = try writer.insertTransfer(transfer, &context, importKey: item.importKey, importId: importId, kept: item.kept, planned: plan?.transfer(), totalled: totalled)
                    default:
                        throw LedgerError.invalid("an item has either a transaction or a transfer", field: .root("item"))
                    }
                    imported += 1
                } catch let error as LedgerError {
                    throw located(error, index: index, item: item)
                }
            }
            try writer.finish()
            return dryRun ? .rollback : .commit
        }
        let ids = writer.ids
        if dryRun {
            context = before
        } else if !ids.isEmpty {
            try context.record(.txImported, id: importId, data: TransactionImportSummary(
                importId: importId, count: ids.count, firstId: ids.min(), lastId: ids.max(), walletIds: writer.walletIds.sorted(),
                categoryIds: writer.categoryIds.sorted(), months: writer.months.sorted()))
        }
        return TransactionImportReply(importId: importId, imported: imported, duplicates: duplicates,
                                      firstId: dryRun ? nil : ids.min(), lastId: dryRun ? nil : ids.max(), dryRun: dryRun)
    }

    static func undo(_ request: TransactionImportUndoRequest, _ context: inout WriteContext) throws -> TransactionImportUndoReply {
        let db = context.db
        let ids = try TransactionRow.ids(importId: request.importId, db)
        guard !ids.isEmpty else {
            throw LedgerError.notFound("no transactions are left from import \(InputEcho.quoted(request.importId))", field: .body("importId"))
        }
        let summary = try removeFromTotals(db, ids: ids, importId: request.importId)
        for (walletId, effect) in try TransactionRow.walletEffects(importId: request.importId, db) {
            try WalletRow.adjustBalance(db, walletId: walletId, by: -effect)
        }
        // A transfer leg recorded by the import takes its other leg with it (both carry the id).
        try TransactionRow.deleteImport(request.importId, db)
        try context.record(.txImportUndone, id: request.importId, data: summary)
        return TransactionImportUndoReply(importId: request.importId, deleted: ids.count)
    }

    // MARK: Helpers

    private static func existingId(_ db: Database, walletId: Int64, key: String) throws -> Int64? {
        try TransactionRow.id(walletId: walletId, importKey: key, db)
    }

    /// Takes the transactions out of the totals and says what they touched.
    private static func removeFromTotals(_ db: Database, ids: [Int64], importId: String) throws -> TransactionImportSummary {
        let sign: Int64 = -1
        var totals = LedgerTotals()
        var wallets = Set<Int64>(), categories = Set<Int64>(), months = Set<String>()
        for chunk in stride(from: 0, to: ids.count, by: 5_000).map({ Array(ids[$0..<min($0 + 5_000, ids.count)]) }) {
            for entry in try TransactionRow.totalsEntries(db, ids: chunk) {
                try totals.add(entry, sign: sign)
                wallets.insert(entry.walletId)
                months.insert(LedgerMonth.of(entry.date))
                if let category = entry.categoryId { categories.insert(category) }
                categories.formUnion(entry.splits.map(\.categoryId))
            }
        }
        try totals.flush(db)
        return TransactionImportSummary(importId: importId, count: ids.count, firstId: ids.min(), lastId: ids.max(),
                                        walletIds: wallets.sorted(), categoryIds: categories.sorted(), months: months.sorted())
    }

    /// The item's error, naming its line (or position) and pointing `field` into the batch.
    private static func located(_ error: LedgerError, index: Int, item: TransactionImportItem) -> LedgerError {
        let itemPath = FieldPath.body("items")[index]
        let member = item.transfer != nil ? "transfer" : "transaction"
        // Handlers name a transaction's fields `body.…`, the item's own `item…` and `kept.…`.
        let field = error.field.map { field in
            switch field.steps.first {
            case .member("body"): field.nested(under: itemPath.member(member))
            case .member("kept"): FieldPath(steps: itemPath.steps + field.steps)
            case .member("item"): FieldPath(steps: itemPath.steps + field.steps.dropFirst())
            default: field
            }
        } ?? itemPath
        let place = item.line.map { "line \($0)" } ?? "item \(index + 1)"
        return error.moved(to: field, reason: "\(place): \(error.reason)")
    }
}
