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

    /// Whether a snapshot of this asset, source and moment (the table's unique key) is stored.
    static func exists(_ db: Database, assetId: Int64, source: String, asOf: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM price_snapshots WHERE asset_id = ? AND source = ? AND as_of = ?)",
                          arguments: [assetId, source, asOf]) == true
    }

    /// One asset's snapshots at or after `since`, by time, then id.
    static func history(_ db: Database, assetId: Int64, since: String) throws -> [PriceSnapshotRow] {
        try PriceSnapshotRow.fetchAll(db, sql: "SELECT * FROM price_snapshots WHERE asset_id = ? AND as_of >= ? ORDER BY as_of, id", arguments: [assetId, since])
    }

    /// An asset's latest price (the stored decimal text) and its time, at or before `cutoff`.
    static func latest(_ db: Database, assetId: Int64?, atOrBefore cutoff: String) throws -> (price: String, asOf: String)? {
        try Row.fetchOne(db, sql: "SELECT price, as_of FROM price_snapshots WHERE asset_id = ? AND as_of <= ? ORDER BY as_of DESC LIMIT 1",
                         arguments: [assetId, cutoff]).map { ($0[0], $0[1]) }
    }

    /// Drops the snapshots older than `cutoff` except each asset's last of each UTC day (its
    /// close); returns how many were dropped.
    static func purge(_ db: Database, before cutoff: String) throws -> Int {
        try db.execute(sql: """
            DELETE FROM price_snapshots WHERE as_of < ?1 AND id NOT IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY asset_id, substr(as_of, 1, 10) ORDER BY as_of DESC, id DESC) AS position
                    FROM price_snapshots WHERE as_of < ?1)
                WHERE position = 1)
            """, arguments: [cutoff])
        return db.changesCount
    }

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM price_snapshots") ?? 0
    }

    // MARK: Typed prices (source `manual`), which sync carries

    static let manual = "source = 'manual'"

    /// Every typed price of one asset, by id.
    static func manualIds(_ db: Database, assetId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM price_snapshots WHERE asset_id = ? AND source = 'manual' ORDER BY id", arguments: [assetId])
    }

    /// A typed price's asset and time (its key), if `id` is a typed price.
    static func manualKey(_ db: Database, id: Int64) throws -> (assetId: Int64, asOf: String)? {
        try db.cachedRow(sql: "SELECT asset_id, as_of FROM price_snapshots WHERE id = ? AND source = 'manual'", arguments: [id]).map { ($0[0], $0[1]) }
    }

    /// Stores a typed price, or sets the price and time typed of the one stored at that moment;
    /// returns its id.
    static func upsertManual(_ db: Database, assetId: Int64, price: String, currency: String, asOf: String, recordedAt: String) throws -> Int64? {
        try db.execute(cached: """
            INSERT INTO price_snapshots (asset_id, price, currency, source, as_of, confidence, recorded_at) VALUES (?, ?, ?, 'manual', ?, 'manual', ?)
            ON CONFLICT (asset_id, source, as_of) DO UPDATE SET price = excluded.price, recorded_at = excluded.recorded_at
            """, arguments: [assetId, price, currency, asOf, recordedAt])
        return try db.cachedValue(Int64.self, sql: "SELECT id FROM price_snapshots WHERE asset_id = ? AND source = 'manual' AND as_of = ?", arguments: [assetId, asOf])
    }

    /// The wire record; stale when older than `staleMinutes` at `now`.
    func record(symbol: String, now: Date, staleMinutes: Int) -> PriceSnapshotRecord {
        let age = now.timeIntervalSince(Timestamp.parse(asOf) ?? now)
        return PriceSnapshotRecord(
            id: id ?? 0, assetId: assetId, symbol: symbol, price: price, currency: currency, source: source, asOf: asOf,
            confidence: PriceConfidence(rawValue: confidence) ?? .manual, stale: age > Double(staleMinutes) * 60, recordedAt: recordedAt)
    }
}
