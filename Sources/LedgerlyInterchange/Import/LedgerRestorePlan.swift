import LedgerlyCore
import LedgerlyProtocol

/// Turns an export's transactions into `tx.import` items for a new ledger that has the export's
/// wallets and categories under their ids (`ledger.restore.begin`): transfer legs become one
/// transfer again, and every item carries its id and the amounts and rates it was recorded with
/// (`KeptAmounts`), so nothing is converted again and what refers to it still does.
public struct LedgerRestorePlan {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let walletIds: Set<Int64>
    private let categoryIds: Set<Int64>
    private var pendingLegs: [Int64: TransactionRecord] = [:]

    /// `walletIds`, `categoryIds`: those the export lists (a transaction naming another is refused).
    public init(walletIds: Set<Int64>, categoryIds: Set<Int64>) {
        self.walletIds = walletIds
        self.categoryIds = categoryIds
    }

    /// Transfer legs whose other leg has not come (yet).
    public var unmatchedLegs: [Int64] { pendingLegs.keys.sorted() }

    /// The item for a record; nil for the first leg of a transfer (the second gives the item).
    /// It keeps the record's import key and import id, so a statement imported before the export
    /// is still found as a duplicate, and its import can still be undone.
    public mutating func item(for record: TransactionRecord) throws(Failure) -> TransactionImportItem? {
        if let link = record.transfer {
            guard let other = pendingLegs.removeValue(forKey: link.counterpartyTransactionId) else {
                pendingLegs[record.id] = record
                return nil
            }
            let (outgoing, incoming) = record.kind == .expense ? (record, other) : (other, record)
            let transfer = TransferCreateRequest(
                fromWalletId: try wallet(outgoing.walletId), toWalletId: try wallet(incoming.walletId), amount: outgoing.walletAmount,
                toAmount: incoming.walletAmount, date: outgoing.date, notes: outgoing.notes, tags: outgoing.tags.isEmpty ? nil : outgoing.tags)
            return TransactionImportItem(importKey: outgoing.importKey, transfer: transfer,
                                         kept: KeptAmounts(baseAmount: outgoing.baseAmount, baseConversion: outgoing.baseConversion,
                                                           incomingBaseAmount: incoming.baseAmount, incomingBaseConversion: incoming.baseConversion,
                                                           id: outgoing.id, incomingId: incoming.id, importId: outgoing.importId, createdAt: outgoing.createdAt, updatedAt: outgoing.updatedAt))
        }
        let splits = try record.splits.map { part throws(Failure) in SplitPart(amount: part.amount, categoryId: try category(part.categoryId), memo: part.memo) }
        let transaction = TransactionCreateRequest(
            kind: record.kind, walletId: try wallet(record.walletId), amount: record.amount, currency: record.currency,
            categoryId: try record.categoryId.map { id throws(Failure) in try category(id) }, notes: record.notes, date: record.date,
            tags: record.tags.isEmpty ? nil : record.tags, attachmentPath: record.attachmentPath, splits: splits.isEmpty ? nil : splits)
        return TransactionImportItem(importKey: record.importKey, transaction: transaction,
                                     kept: KeptAmounts(walletAmount: record.walletAmount, baseAmount: record.baseAmount, conversion: record.conversion, baseConversion: record.baseConversion,
                                                       id: record.id, importId: record.importId, createdAt: record.createdAt, updatedAt: record.updatedAt))
    }

    private func wallet(_ id: Int64) throws(Failure) -> Int64 {
        guard walletIds.contains(id) else { throw Failure(description: "the export's transactions name wallet \(id), which it does not list") }
        return id
    }

    private func category(_ id: Int64) throws(Failure) -> Int64 {
        guard categoryIds.contains(id) else { throw Failure(description: "the export's transactions name category \(id), which it does not list") }
        return id
    }
}
