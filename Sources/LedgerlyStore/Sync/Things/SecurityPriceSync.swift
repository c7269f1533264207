import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Prices typed by hand (`invest price set`, source `manual`): a security no provider quotes (a
/// private fund) is valued by them, so every device must hold the same ones. A price is known by
/// its security and moment (`price:<security gid>@<asOf>`, the table's key with the source), so
/// the same moment typed on two devices apart is one price, the later value winning. Fetched
/// prices are not synced: every device fetches its own, as with rates.
enum SecurityPriceSync: SyncedThing {
    static let entity = "security_price"

    private struct Fields: Codable {
        var security: String
        var price: String
        var currency: String
        var asOf: String
        /// When it was typed (`recorded_at`); named as every kind's creation time is, so that a
        /// reused local id (the table hands out a purged last id again) is told from the price
        /// that had it.
        var createdAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: PriceSnapshotRow.databaseTableName, filter: PriceSnapshotRow.manual, db, after: after, limit: limit)
    }

    /// Every typed price of one security.
    static func ids(assetId: Int64, _ db: Database) throws -> [Int64] {
        try PriceSnapshotRow.manualIds(db, assetId: assetId)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let key = try PriceSnapshotRow.manualKey(db, id: id) else { return nil }
        return "price:\(try identities.gid(SecuritySync.self, localId: key.assetId))@\(key.asOf)"
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let row = try PriceSnapshotRow.fetchOne(db, key: id), row.source == "manual" else { return nil }
        return try SyncFields.object(Fields(
            security: try identities.gid(SecuritySync.self, localId: row.assetId), price: row.price, currency: row.currency, asOf: row.asOf, createdAt: row.recordedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let assetId = try identities.localId(SecuritySync.self, gid: fields.security, field: "security")
        let asset = try AssetRow.find(db, id: assetId, field: field)
        let price = try TradeRules.price(fields.price, field: field)
        guard fields.currency == asset.quoteCurrency else {
            throw LedgerError.invalid("a synced price of \(asset.symbol) is in \(fields.currency), but it is quoted in \(asset.quoteCurrency) here", field: field)
        }
        let asOf = try InputRules.timestamp(fields.asOf, field: field)
        guard gid == "price:\(fields.security)@\(asOf)" else {
            throw LedgerError.invalid("a synced price of \(asset.symbol) at \(asOf) does not have that price's id (\(gid))", field: field)
        }
        guard let id = try PriceSnapshotRow.upsertManual(db, assetId: assetId, price: price.decimalString, currency: asset.quoteCurrency, asOf: asOf,
                                                         recordedAt: fields.createdAt) else {
            throw LedgerError.broken("the synced price was stored but cannot be read back")
        }
        try context.record(.pricesUpdated, id: String(assetId), data: PricesUpdatedSummary(stored: 1, assetIds: [assetId]))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "a price was deleted on another device, but typed prices are only removed by a purge on each device: it stays here"
    }
}
