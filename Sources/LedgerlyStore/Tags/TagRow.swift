import GRDB
import LedgerlyProtocol

/// A row of `tags`: the one type that reads and writes the table, and the one place a stored tag
/// becomes its wire record.
struct TagRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "tags"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }

    var id: Int64?
    var name: String

    init(id: Int64? = nil, name: String) {
        self.id = id
        self.name = name
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var record: TagRecord { TagRecord(id: id ?? 0, name: name) }
}

extension TagRow {
    /// The id of the tag with this name (names are unique ignoring case). Cached SQL: every
    /// tagged transaction asks.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM tags WHERE name = ?", arguments: [name])
    }
}
