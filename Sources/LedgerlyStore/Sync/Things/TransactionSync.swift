import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Transactions that are not transfer legs (`TransferSync`) nor an investment trade's cash or a
/// liability payment (those move with their trade or liability entry: `TradeSync`,
/// `LiabilityEntrySync`).
///
/// The fields are what an export's restore sends for the transaction (`tx.import` with `kept`):
/// the amounts and rate snapshots it was recorded with, so every device keeps the same base
/// amounts whatever rates it holds; a change is written as the transaction recorded again, under
/// its own id, through `TransactionWriter`.
enum TransactionSync: SyncedThing {
    static let entity = "transaction"

    struct Split: Codable, Equatable {
        var amount: String
        var category: String
        var memo: String?
    }

    private struct Fields: Codable {
        var kind: TransactionKind
        var wallet: String
        var amount: String
        var currency: String
        var category: String?
        var notes: String?
        var date: String
        var tags: [String]?
        var attachmentPath: String?
        var splits: [Split]?
        var walletAmount: String
        var baseAmount: String?
        var conversion: RateSnapshot?
        var baseConversion: RateSnapshot?
        var importKey: String?
        var importId: String?
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        let ids = try TransactionRow.ownIds(db, after: after, limit: limit)
        return (ids, ids.last ?? after)
    }

    /// Whether a transaction row is one of these (it exists, and is not a leg, trade cash or payment).
    static func isOwn(_ db: Database, id: Int64) throws -> Bool {
        try TransactionRow.isOwn(db, id: id)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard try isOwn(db, id: id) else { return nil }
        let record = try TransactionHandlers.fetch(db, id: id)
        let splits = try record.splits.map { Split(amount: $0.amount, category: try identities.gid(CategorySync.self, localId: $0.categoryId), memo: $0.memo) }
        return try SyncFields.object(Fields(
            kind: record.kind, wallet: try identities.gid(WalletSync.self, localId: record.walletId), amount: record.amount, currency: record.currency,
            category: try record.categoryId.map { try identities.gid(CategorySync.self, localId: $0) }, notes: record.notes, date: record.date,
            tags: record.tags.isEmpty ? nil : record.tags, attachmentPath: record.attachmentPath, splits: splits.isEmpty ? nil : splits,
            walletAmount: record.walletAmount, baseAmount: record.baseAmount, conversion: record.conversion, baseConversion: record.baseConversion,
            importKey: record.importKey, importId: record.importId, createdAt: record.createdAt, updatedAt: record.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let splits = try (fields.splits ?? []).map {
            SplitPart(amount: $0.amount, categoryId: try identities.localId(CategorySync.self, gid: $0.category, field: "splits"), memo: $0.memo)
        }
        let request = TransactionCreateRequest(
            kind: fields.kind, walletId: try identities.localId(WalletSync.self, gid: fields.wallet, field: "wallet"), amount: fields.amount, currency: fields.currency,
            categoryId: try fields.category.map { try identities.localId(CategorySync.self, gid: $0, field: "category") }, notes: fields.notes, date: fields.date,
            tags: fields.tags, attachmentPath: fields.attachmentPath, splits: splits.isEmpty ? nil : splits)
        if let localId { try SyncedRows.removeTransactions(db, ids: [localId]) }
        let writer = TransactionWriter(db: db)
        let id = try writer.insert(request, &context, importKey: fields.importKey, kept: KeptAmounts(
            walletAmount: fields.walletAmount, baseAmount: fields.baseAmount, conversion: fields.conversion, baseConversion: fields.baseConversion,
            id: localId ?? (try SyncNames.freeId(idHint, table: "transactions", db)), importId: fields.importId, createdAt: fields.createdAt, updatedAt: fields.updatedAt))
        try writer.finish()
        try context.record(localId == nil ? .txCreated : .txUpdated, id: String(id), data: try TransactionHandlers.fetch(db, id: id))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try TransactionHandlers.delete(TransactionDeleteRequest(id: localId), &context)
        return nil
    }
}
