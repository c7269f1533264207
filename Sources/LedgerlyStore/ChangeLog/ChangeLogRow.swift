import GRDB
import LedgerlyProtocol

/// A row of `change_log`, where every change is appended in the same SQL transaction as the
/// change itself: the one type that reads and writes the table, and the place of the statements
/// on it (D454). The append runs on every write, so it is named SQL run through the
/// connection's statement cache (D455).
struct ChangeLogRow: FetchableRecord, Sendable {
    static let databaseTableName = "change_log"

    enum Columns {
        static let seq = Column("seq")
        static let ts = Column("ts")
        static let type = Column("type")
        static let entity = Column("entity")
        static let entityId = Column("entity_id")
        static let data = Column("data")
    }

    var seq: Int64
    var ts: String
    var type: String
    var entity: String
    var entityId: String
    /// The entity after the change, as JSON text.
    var data: String

    init(row: Row) {
        seq = row[Columns.seq]
        ts = row[Columns.ts]
        type = row[Columns.type]
        entity = row[Columns.entity]
        entityId = row[Columns.entityId]
        data = row[Columns.data]
    }

    /// Appends a row; its `seq` is then the connection's last inserted row id.
    static func append(_ db: Database, ts: String, type: String, entity: String, entityId: String, data: String) throws {
        try db.execute(cached: "INSERT INTO change_log (ts, type, entity, entity_id, data) VALUES (?, ?, ?, ?, ?)",
                       arguments: [ts, type, entity, entityId, data])
    }

    /// Up to `limit` rows after `seq`, in order.
    static func after(_ seq: Int64, limit: Int, _ db: Database) throws -> [ChangeLogRow] {
        try db.cachedRows(sql: "SELECT * FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq, limit]).map(ChangeLogRow.init(row:))
    }

    /// When the last change of `type` was logged (its `ts`), if any: `networth.restore` drops the
    /// snapshots taken since the restore began (D219).
    static func lastTime(of type: ChangeEventType, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT MAX(ts) FROM change_log WHERE type = ?", arguments: [type.rawValue])
    }

    /// The last row's `seq`; 0 while the log is empty.
    static func lastSeq(_ db: Database) throws -> Int64 {
        try db.cachedValue(Int64.self, sql: "SELECT max(seq) FROM change_log") ?? 0
    }
}
