import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A manual asset's dated valuation. Valuations are only ever added (a revaluation is a new one),
/// so each is its own thing with a random global id: revaluations two devices made apart are both
/// kept, and net worth on any day reads the same valuation everywhere. They have no event of
/// their own: each comes with its asset's `asset.created` / `asset.updated`.
enum AssetValuationSync: SyncedThing {
    static let entity = "asset_valuation"

    private struct Fields: Codable {
        var asset: String
        var date: String
        var value: String
        var notes: String?
        var createdAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: AssetValuationRow.databaseTableName, db, after: after, limit: limit)
    }

    /// Every valuation of one asset, for a stamp of the asset's change.
    static func ids(ofAsset assetId: Int64, _ db: Database) throws -> [Int64] {
        try AssetValuationRow.ids(ofAsset: assetId, db)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let (valuation, currency) = try AssetValuationRow.withCurrency(db, id: id) else { return nil }
        return try SyncFields.object(Fields(
            asset: try identities.gid(ManualAssetSync.self, localId: valuation.assetId), date: valuation.date, value: InputRules.format(valuation.valueMinor, currency),
            notes: valuation.notes, createdAt: valuation.createdAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let assetId = try identities.localId(ManualAssetSync.self, gid: fields.asset, field: "asset")
        let asset = try ManualAssetRow.find(db, id: assetId, field: field)
        let value = try NetWorthRules.value(fields.value, currency: try InputRules.currency(asset.currency, field: field), field: field)
        let date = try InputRules.date(fields.date, field: field).description
        let notes = try InputRules.optionalText(fields.notes, field: field)
        let id: Int64
        if let localId {
            try AssetValuationRow.updateSynced(db, id: localId, assetId: assetId, date: date, valueMinor: value, notes: notes, createdAt: fields.createdAt)
            id = localId
        } else {
            var valuation = AssetValuationRow(id: try SyncNames.freeId(idHint, table: AssetValuationRow.databaseTableName, db), assetId: assetId, date: date,
                                              valueMinor: value, notes: notes, createdAt: fields.createdAt)
            try valuation.insert(db)
            id = valuation.id ?? 0
        }
        // Net worth changed: the asset's ordinary event, without touching the asset's own fields.
        try context.record(.manualAssetUpdated, id: String(assetId), data: try asset.record(db, withValuations: true))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "valuation \(localId) was deleted on another device, but valuations are only ever added: it stays here"
    }
}
