import Foundation
import GRDB
import LedgerlyProtocol

/// A row of `alerts`, the alert log: the one type that reads and writes the table, and the one
/// place a stored alert becomes its wire record.
struct AlertRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "alerts"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let key = Column("key")
        static let subject = Column("subject")
        static let message = Column("message")
        static let period = Column("period")
        static let threshold = Column("threshold")
        static let data = Column("data")
        static let raisedAt = Column("raised_at")
    }

    var id: Int64?
    /// Stored as text; a kind this version does not know reads as `budget.threshold`.
    var kind: String
    /// Unique: the alert log records a key once, which is the whole exactly-once rule.
    var key: String
    var subject: String
    var message: String
    var period: String?
    var threshold: Int?
    /// JSON text.
    var data: String?
    var raisedAt: String

    init(id: Int64? = nil, kind: String, key: String, subject: String, message: String, period: String?, threshold: Int?, data: JSONValue?, raisedAt: String) throws {
        self.id = id
        self.kind = kind
        self.key = key
        self.subject = subject
        self.message = message
        self.period = period
        self.threshold = threshold
        self.data = try data.map { String(decoding: try MessageCoding.encode($0), as: UTF8.self) }
        self.raisedAt = raisedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var record: AlertRecord {
        AlertRecord(
            id: id ?? 0, kind: AlertKind(rawValue: kind) ?? .budgetThreshold, key: key, subject: subject, message: message, period: period,
            threshold: threshold, data: data.flatMap { try? MessageCoding.decoder().decode(JSONValue.self, from: Data($0.utf8)) }, raisedAt: raisedAt)
    }
}

extension AlertRow {
    /// The alert's key, if there is such an alert.
    static func key(_ db: Database, id: Int64) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT key FROM alerts WHERE id = ?", arguments: [id])
    }

    /// The alert holding `key`, if any (keys are unique).
    static func id(key: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM alerts WHERE key = ?", arguments: [key])
    }

    /// `alerts.list`'s page, oldest first, of alerts raised at or after `since`: with a cursor
    /// (`after`), the oldest after it, so a follower pages forward without gaps; without one, the
    /// newest `limit`.
    static func page(_ db: Database, after: Int64?, since: String?, limit: Int) throws -> [AlertRow] {
        try db.cachedRows(
            sql: after != nil
                ? "SELECT * FROM alerts WHERE id > ? AND raised_at >= ? ORDER BY id LIMIT ?"
                : "SELECT * FROM (SELECT * FROM alerts WHERE id > ? AND raised_at >= ? ORDER BY id DESC LIMIT ?) ORDER BY id",
            arguments: [after ?? 0, since ?? "", limit]).map { try AlertRow(row: $0) }
    }

    /// The highest id named in the keys that start with `prefix` (`budget:`: the `<id>` of
    /// `budget:<id>:…`), if any: a restore keeps new ids past them.
    static func highestIdInKeys(prefix: String, _ db: Database) throws -> Int64? {
        let start = prefix.count + 1
        return try db.cachedValue(Int64.self, sql: """
            SELECT max(CAST(substr(key, ?, instr(substr(key, ?), ':') - 1) AS INTEGER)) FROM alerts WHERE substr(key, 1, ?) = ?
            """, arguments: [start, start, prefix.count, prefix])
    }
}
