import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Securities (the `assets` an investment account trades: a fund, a share, a coin): every field.
/// A security is known by its symbol (`security:<SYMBOL>`, A–Z folded as the table's unique
/// symbol does), so the same fund added on two devices while apart is one security, with the
/// fields merged, not a renamed twin whose trades and prices are split (D312). It keeps that id
/// when its symbol changes later; a new security given the old symbol then gets a random id.
/// Securities are never deleted.
enum SecuritySync: SyncedThing {
    static let entity = "security"

    private struct Fields: Codable {
        var symbol: String
        var assetType: AssetType
        var name: String?
        var exchange: String?
        var quoteCurrency: String
        var provider: PriceProvider
        var providerId: String?
        var allocationGroup: String?
        var watched: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: AssetRow.databaseTableName, db, after: after, limit: limit)
    }

    /// Nil (a random id) when the symbol's id is another security's here: that one had this
    /// symbol when it was first synced and has since been given another.
    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let symbol = try AssetRow.symbol(db, id: id) else { return nil }
        let derived = gid(symbol: symbol)
        if let holder = try SyncIdentityRow.find(db, entity: entity, gid: derived), !holder.deleted, let other = holder.localId, other != id { return nil }
        return derived
    }

    static func gid(symbol: String) -> String {
        // NOCASE folds a–z only, so "É" and "é" are two symbols and must be two ids.
        "security:" + SyncNames.foldedAZ(symbol, upper: true)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let asset = try AssetRow.fetchOne(db, key: id) else { return nil }
        let record = asset.record
        return try SyncFields.object(Fields(
            symbol: record.symbol, assetType: record.assetType, name: record.name, exchange: record.exchange, quoteCurrency: record.quoteCurrency,
            provider: record.provider, providerId: record.providerId, allocationGroup: record.allocationGroup, watched: record.watched,
            createdAt: record.createdAt, updatedAt: record.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let symbol = try AssetHandlers.symbolText(fields.symbol, field: field)
        if let holder = try AssetRow.id(symbol: symbol, db), holder != localId {
            // Only when a symbol was changed while apart to one the other device uses.
            throw LedgerError.conflict("the symbol '\(symbol)' belongs to another security here", field: field)
        }
        let currency = try InputRules.currency(fields.quoteCurrency, field: field).code
        let was = try localId.map { try AssetRow.find(db, id: $0, field: field) }
        if let was, was.quoteCurrency != currency, try TradeRow.exists(db, assetId: was.id) {
            throw LedgerError.conflict("\(was.symbol) has trades in \(was.quoteCurrency) here: its quote currency cannot change to \(currency)", field: field)
        }
        let group = try InputRules.optionalText(fields.allocationGroup, field: field, limit: AllocationHandlers.maximumKeyLength)
        var row = try AssetRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: AssetRow.databaseTableName, db)), symbol: symbol, assetType: fields.assetType.rawValue,
            name: try InputRules.optionalText(fields.name, field: field, limit: 200), exchange: try InputRules.optionalText(fields.exchange, field: field, limit: 50),
            quoteCurrency: currency, provider: fields.provider.rawValue, providerId: try InputRules.optionalText(fields.providerId, field: field, limit: 100),
            allocationGroup: group, watched: fields.watched, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if was != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        try context.record(was == nil ? .assetCreated : .assetUpdated, id: String(id), data: row.record)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "security \(localId) was deleted on another device, but securities are never deleted: it stays here"
    }
}
