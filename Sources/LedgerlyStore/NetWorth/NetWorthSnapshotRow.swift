import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `networth_snapshots`: the one type that reads and writes the table, and the one place
/// a stored snapshot becomes its wire record. The month (YYYY-MM) is the key; a snapshot is taken
/// once and never changed, except that sync's earlier snapshot of a month replaces a later one.
struct NetWorthSnapshotRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "networth_snapshots"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let month = Column("month")
        static let takenAt = Column("taken_at")
    }

    var month: String
    /// The month's last day, the day the figures are of.
    var date: String
    var baseCurrency: String
    var totalAssetsMinor: Int64
    var totalLiabilitiesMinor: Int64
    var netWorthMinor: Int64
    var coreMinor: Int64
    var tangibleMinor: Int64
    var volatileMinor: Int64
    var complete: Bool
    /// JSON text: an array of strings.
    var warnings: String
    /// JSON text: the `NetWorthItem`s as taken.
    var items: String
    var takenAt: String

    static func find(_ db: Database, month: String) throws -> NetWorthSnapshotRow? {
        try NetWorthSnapshotRow.fetchOne(db, key: month)
    }

    /// The snapshots of the months from `from` to `to` (both included), by month.
    static func range(_ db: Database, from: String, to: String) throws -> [NetWorthSnapshotRow] {
        try NetWorthSnapshotRow.filter(Columns.month >= from && Columns.month <= to).order(Columns.month).fetchAll(db)
    }

    /// The months from `from` to `to` (both included) that have a snapshot.
    static func months(_ db: Database, from: String, to: String) throws -> [String] {
        try NetWorthSnapshotRow.select(Columns.month, as: String.self).filter(Columns.month >= from && Columns.month <= to).fetchAll(db)
    }

    /// The months after `after` that have a snapshot, in order, at most `limit` of them.
    static func months(_ db: Database, after: String, limit: Int) throws -> [String] {
        try NetWorthSnapshotRow.select(Columns.month, as: String.self).filter(Columns.month > after).order(Columns.month).limit(limit).fetchAll(db)
    }

    /// Drops the snapshots taken at or after `moment` (a timestamp).
    static func deleteTaken(since moment: String, _ db: Database) throws {
        try NetWorthSnapshotRow.filter(Columns.takenAt >= moment).deleteAll(db)
    }

    /// The wire record; the items are read even when not sent, since they name what was not
    /// valued (D410).
    func record(includeItems: Bool) throws -> NetWorthSnapshotRecord {
        let sums = NetWorthParts.Sums(totalAssets: totalAssetsMinor, totalLiabilities: totalLiabilitiesMinor, netWorth: netWorthMinor,
                                      core: coreMinor, tangible: tangibleMinor, volatile: volatileMinor)
        let decoder = MessageCoding.decoder()
        let items = try decoder.decode([NetWorthItem].self, from: Data(items.utf8))
        return NetWorthSnapshotRecord(
            month: month, date: date, baseCurrency: baseCurrency, figures: sums.figures(baseCurrency), complete: complete,
            warnings: try decoder.decode([String].self, from: Data(warnings.utf8)), takenAt: takenAt,
            items: includeItems ? items : nil, notValued: NetWorthParts.notValued(items))
    }
}
