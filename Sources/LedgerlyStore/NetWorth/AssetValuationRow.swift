import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `asset_valuations`: the one type that reads and writes the table. A valuation is a
/// manual asset's dated value; valuations are only ever added (a revaluation is a new one),
/// except that sync writes a synced valuation's columns again.
struct AssetValuationRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "asset_valuations"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let assetId = Column("asset_id")
        static let date = Column("date")
        static let createdAt = Column("created_at")
    }

    var id: Int64?
    var assetId: Int64
    var date: String
    /// Minor units of the asset's currency, zero or more.
    var valueMinor: Int64
    var notes: String?
    var createdAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// One asset's valuations by day, then in the order they were recorded (`created_at` travels
    /// with a synced valuation; local ids do not), then id: the last is its value, the same on
    /// every device when two devices revalued it the same day (as `LiabilityEntryRow.history`).
    static func history(_ db: Database, assetId: Int64) throws -> [AssetValuationRow] {
        try AssetValuationRow.filter(Columns.assetId == assetId).order(Columns.date, Columns.createdAt, Columns.id).fetchAll(db)
    }

    /// Every valuation id of one asset, in order of id.
    static func ids(ofAsset assetId: Int64, _ db: Database) throws -> [Int64] {
        try AssetValuationRow.select(Columns.id, as: Int64.self).filter(Columns.assetId == assetId).order(Columns.id).fetchAll(db)
    }

    /// One valuation with its asset's currency, for sync's fields (one cached statement each).
    static func withCurrency(_ db: Database, id: Int64) throws -> (valuation: AssetValuationRow, currency: String)? {
        guard let row = try db.cachedRow(sql: """
            SELECT v.asset_id, v.date, v.value_minor, v.notes, v.created_at, a.currency FROM asset_valuations v JOIN manual_assets a ON a.id = v.asset_id WHERE v.id = ?
            """, arguments: [id]) else { return nil }
        return (AssetValuationRow(id: id, assetId: row[0], date: row[1], valueMinor: row[2], notes: row[3], createdAt: row[4]), row[5])
    }

    /// A synced valuation written again, every column but its id.
    static func updateSynced(_ db: Database, id: Int64, assetId: Int64, date: String, valueMinor: Int64, notes: String?, createdAt: String) throws {
        try db.execute(sql: "UPDATE asset_valuations SET asset_id = ?, date = ?, value_minor = ?, notes = ?, created_at = ? WHERE id = ?",
                       arguments: [assetId, date, valueMinor, notes, createdAt, id])
    }

    /// The wire record, the value in the asset's currency.
    func record(currency: String) -> ValuationRecord {
        ValuationRecord(id: id ?? 0, date: date, value: InputRules.format(valueMinor, currency), notes: notes, createdAt: createdAt)
    }
}
