import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `manual_assets`: the one type that reads and writes the table, and the one place a
/// stored manual asset becomes its wire record (with its valuations from `asset_valuations`).
struct ManualAssetRow: Codable, NetWorthItemRow {
    static let databaseTableName = "manual_assets"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// Its columns by name: `NetWorthItemColumns`, which both item tables share.
    typealias Columns = NetWorthItemColumns

    var id: Int64?
    var name: String
    var assetType: String
    var currency: String
    var volatile: Bool
    var includeInCore: Bool
    var includeInTangible: Bool
    var notes: String?
    var archived: Bool
    var createdAt: String
    var updatedAt: String

    static let itemName = "manual asset"
    static let listCommand = "asset"

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func itemRecord(_ db: Database, withHistory: Bool) throws -> ManualAssetRecord { try record(db, withValuations: withHistory) }

    /// Every manual asset by name, then id, with its latest valuation (by day, then time recorded,
    /// then id, as `AssetValuationRow.history` orders them) on or before `day` in minor units; nil
    /// before its first (net worth at a day, one statement).
    static func withValue(on day: String, _ db: Database) throws -> [(asset: ManualAssetRow, value: Int64?)] {
        try Row.fetchAll(db, sql: """
            SELECT a.*, (SELECT v.value_minor FROM asset_valuations v WHERE v.asset_id = a.id AND v.date <= ? ORDER BY v.date DESC, v.created_at DESC, v.id DESC LIMIT 1) AS value
            FROM manual_assets a ORDER BY a.name, a.id
            """, arguments: [day]).map { row in (try ManualAssetRow(row: row), row["value"]) }
    }

    /// The wire record: the latest valuation (`AssetValuationRow.history`'s last) as its value; every valuation
    /// when `withValuations`.
    func record(_ db: Database, withValuations: Bool) throws -> ManualAssetRecord {
        let id = self.id ?? 0
        let valuations = try AssetValuationRow.history(db, assetId: id).map { $0.record(currency: currency) }
        return ManualAssetRecord(
            id: id, name: name, assetType: ManualAssetType(rawValue: assetType) ?? .tangible, currency: currency, value: valuations.last?.value ?? InputRules.format(0, currency),
            valuedOn: valuations.last?.date ?? "", volatile: volatile, includeInCore: includeInCore, includeInTangible: includeInTangible, notes: notes,
            archived: archived, createdAt: createdAt, updatedAt: updatedAt, valuations: withValuations ? valuations : nil)
    }
}
