import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Manual assets (a flat, a car): every field of the asset. Its valuations are things of their
/// own (`AssetValuationSync`), since revaluations made on two devices apart must both be kept.
/// Assets are archived, never deleted. Two made apart with one name are both kept, one renamed.
enum ManualAssetSync: SyncedThing {
    static let entity = "manual_asset"

    private struct Fields: Codable {
        var name: String
        var assetType: ManualAssetType
        var currency: String
        var volatile: Bool
        var includeInCore: Bool
        var includeInTangible: Bool
        var notes: String?
        var archived: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: ManualAssetRow.databaseTableName, db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let asset = try ManualAssetRow.fetchOne(db, key: id) else { return nil }
        return try SyncFields.object(Fields(
            name: asset.name, assetType: ManualAssetType(rawValue: asset.assetType) ?? .tangible, currency: asset.currency, volatile: asset.volatile,
            includeInCore: asset.includeInCore, includeInTangible: asset.includeInTangible, notes: asset.notes, archived: asset.archived,
            createdAt: asset.createdAt, updatedAt: asset.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let currency = try InputRules.currency(fields.currency, field: field)
        if let localId, try ManualAssetRow.find(db, id: localId, field: field).currency != currency.code {
            throw LedgerError.invalid("a synced manual asset cannot change currency", field: field)
        }
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .manualAssets, identities: identities, &context)
        var row = try ManualAssetRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: ManualAssetRow.databaseTableName, db)), name: name, assetType: fields.assetType.rawValue, currency: currency.code,
            volatile: fields.volatile, includeInCore: fields.includeInCore, includeInTangible: fields.includeInTangible,
            notes: try InputRules.optionalText(fields.notes, field: field), archived: fields.archived, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        try context.record(localId == nil ? .manualAssetCreated : .manualAssetUpdated, id: String(id), data: try row.record(db, withValuations: true))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "manual asset \(localId) was deleted on another device, but manual assets are archived, not deleted: it stays here"
    }
}
