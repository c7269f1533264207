import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `price_snapshots`: one price of one asset at one time, from one source.
struct PriceSnapshotRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "price_snapshots"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64?
    var assetId: Int64
    var price: String
    var currency: String
    var source: String
    var asOf: String
    var confidence: String
    var recordedAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The asset's newest snapshot (by the time it was true). Cached SQL: holdings ask per asset.
    static func latest(_ db: Database, assetId: Int64) throws -> PriceSnapshotRow? {
        guard let row = try db.cachedRow(sql: "SELECT * FROM price_snapshots WHERE asset_id = ? ORDER BY as_of DESC, id DESC LIMIT 1", arguments: [assetId]) else { return nil }
        return try PriceSnapshotRow(row: row)
    }

    /// The wire record; stale when older than `staleMinutes` at `now`.
    func record(symbol: String, now: Date, staleMinutes: Int) -> PriceSnapshotRecord {
        let age = now.timeIntervalSince(Timestamp.parse(asOf) ?? now)
        return PriceSnapshotRecord(
            id: id ?? 0, assetId: assetId, symbol: symbol, price: price, currency: currency, source: source, asOf: asOf,
            confidence: PriceConfidence(rawValue: confidence) ?? .manual, stale: age > Double(staleMinutes) * 60, recordedAt: recordedAt)
    }
}
