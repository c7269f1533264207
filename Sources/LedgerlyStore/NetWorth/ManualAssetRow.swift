import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `manual_assets`: the one type that reads and writes the table, and the one place a
/// stored manual asset becomes its wire record (with its valuations from `asset_valuations`).
struct ManualAssetRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "manual_assets"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

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

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> ManualAssetRow {
        guard let row = try ManualAssetRow.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no manual asset \(id); see `ledgerly asset list`", field: field())
        }
        return row
    }

    /// The wire record: the latest valuation (by day, then id) as its value; every valuation
    /// when `withValuations`.
    func record(_ db: Database, withValuations: Bool) throws -> ManualAssetRecord {
        let id = self.id ?? 0
        let valuations = try Row.fetchAll(db, sql: "SELECT * FROM asset_valuations WHERE asset_id = ? ORDER BY date, id", arguments: [id]).map { row in
            ValuationRecord(id: row["id"], date: row["date"], value: InputRules.format(row["value_minor"], currency), notes: row["notes"], createdAt: row["created_at"])
        }
        return ManualAssetRecord(
            id: id, name: name, assetType: ManualAssetType(rawValue: assetType) ?? .tangible, currency: currency, value: valuations.last?.value ?? InputRules.format(0, currency),
            valuedOn: valuations.last?.date ?? "", volatile: volatile, includeInCore: includeInCore, includeInTangible: includeInTangible, notes: notes,
            archived: archived, createdAt: createdAt, updatedAt: updatedAt, valuations: withValuations ? valuations : nil)
    }
}
