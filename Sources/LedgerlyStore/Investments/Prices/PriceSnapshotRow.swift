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

    /// Every asset's newest snapshot (by the time it was true), by asset id, in one statement (one
    /// indexed lookup per asset): holdings, `invest.price.list` and `invest.price.wanted` read them all.
    /// Columns by position, not `Codable` (which converts every column name from snake case on
    /// every row: D141).
    static func latestOfEveryAsset(_ db: Database) throws -> [Int64: PriceSnapshotRow] {
        var latest: [Int64: PriceSnapshotRow] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, asset_id, price, currency, source, as_of, confidence, recorded_at FROM price_snapshots WHERE id IN (
                SELECT (SELECT id FROM price_snapshots p WHERE p.asset_id = assets.id ORDER BY as_of DESC, id DESC LIMIT 1) FROM assets)
            """)
        while let row = try rows.next() {
            let snapshot = PriceSnapshotRow(id: row[0], assetId: row[1], price: row[2], currency: row[3], source: row[4], asOf: row[5], confidence: row[6], recordedAt: row[7])
            if latest[snapshot.assetId] == nil { latest[snapshot.assetId] = snapshot }
        }
        return latest
    }

    /// The wire record; stale when older than `staleMinutes` at `now`.
    func record(symbol: String, now: Date, staleMinutes: Int) -> PriceSnapshotRecord {
        let age = now.timeIntervalSince(Timestamp.parse(asOf) ?? now)
        return PriceSnapshotRecord(
            id: id ?? 0, assetId: assetId, symbol: symbol, price: price, currency: currency, source: source, asOf: asOf,
            confidence: PriceConfidence(rawValue: confidence) ?? .manual, stale: age > Double(staleMinutes) * 60, recordedAt: recordedAt)
    }
}
