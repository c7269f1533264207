import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `allocation_targets`: the one type that reads and writes the table. A target is a
/// share of the portfolio for one key (a group or an asset type) of one dimension, with its drift
/// state: whether it is drifting now and how many drift episodes it has had (each raises one
/// alert). Keys compare ignoring case, as the column does.
struct AllocationTargetRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "allocation_targets"

    enum Columns {
        static let dimension = Column("dimension")
        static let key = Column("key")
    }

    var dimension: String
    var key: String
    /// Percent with two decimals ("37.50").
    var percent: String
    var drifting: Bool = false
    var episode: Int64 = 0

    /// One dimension's targets, in the table's (key) order.
    static func of(_ db: Database, dimension: String) throws -> [AllocationTargetRow] {
        try AllocationTargetRow.filter(Columns.dimension == dimension).fetchAll(db)
    }

    /// Every target by dimension, then key.
    static func all(_ db: Database) throws -> [AllocationTargetRow] {
        try AllocationTargetRow.order(Columns.dimension, Columns.key).fetchAll(db)
    }

    /// The percentages of a dimension's other targets than `key`.
    static func otherPercents(_ db: Database, dimension: String, except key: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT percent FROM allocation_targets WHERE dimension = ? AND key != ?", arguments: [dimension, key])
    }

    /// Sets a target's percentage, keeping its drift state, or adds it.
    static func set(_ db: Database, dimension: String, key: String, percent: String) throws {
        try db.execute(sql: """
            INSERT INTO allocation_targets (dimension, key, percent) VALUES (?, ?, ?)
            ON CONFLICT (dimension, key) DO UPDATE SET percent = excluded.percent
            """, arguments: [dimension, key, percent])
    }

    /// Removes a target; false when there was none.
    static func remove(_ db: Database, dimension: String, key: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM allocation_targets WHERE dimension = ? AND key = ?", arguments: [dimension, key])
        return db.changesCount > 0
    }

    /// Removes every target of a dimension.
    static func removeAll(_ db: Database, dimension: String) throws {
        try db.execute(sql: "DELETE FROM allocation_targets WHERE dimension = ?", arguments: [dimension])
    }

    /// A drift episode begins (its number) or ends.
    static func setDrifting(_ db: Database, dimension: String, key: String, episode: Int64?) throws {
        if let episode {
            try db.execute(sql: "UPDATE allocation_targets SET drifting = 1, episode = ? WHERE dimension = ? AND key = ?", arguments: [episode, dimension, key])
        } else {
            try db.execute(sql: "UPDATE allocation_targets SET drifting = 0 WHERE dimension = ? AND key = ?", arguments: [dimension, key])
        }
    }
}
