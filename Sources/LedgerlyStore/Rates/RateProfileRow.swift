import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `rate_profiles`: the one type that reads and writes the table, and the one place a
/// stored profile becomes its wire record.
struct RateProfileRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "rate_profiles"
    /// Properties are the columns in camel case (`primary_source` → `primarySource`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let type = Column("type")
        static let isDefault = Column("is_default")
    }

    var id: Int64?
    var name: String
    /// `official`, `parallel` or `manual` (a CHECK constraint).
    var type: String
    var primarySource: String?
    var notes: String?
    /// One default per type: the profile a conversion in that mode uses.
    var isDefault: Bool
    var lastUpdated: String?
    var createdAt: String

    init(id: Int64? = nil, name: String, type: ExchangeMode, primarySource: String?, notes: String?, isDefault: Bool, lastUpdated: String?, createdAt: String) {
        self.id = id
        self.name = name
        self.type = type.rawValue
        self.primarySource = primarySource
        self.notes = notes
        self.isDefault = isDefault
        self.lastUpdated = lastUpdated
        self.createdAt = createdAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    // MARK: Statements (cached: a conversion reads its profile)

    static func find(_ db: Database, id: Int64) throws -> RateProfileRow? {
        try db.cachedRow(sql: "SELECT * FROM rate_profiles WHERE id = ?", arguments: [id]).map { try RateProfileRow(row: $0) }
    }

    /// The default profile of a type, else its first.
    static func defaultOf(_ db: Database, type: String) throws -> RateProfileRow? {
        try db.cachedRow(sql: "SELECT * FROM rate_profiles WHERE type = ? ORDER BY is_default DESC, id LIMIT 1", arguments: [type]).map { try RateProfileRow(row: $0) }
    }

    /// The id of the profile with this name (compared without case, as the column is), if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM rate_profiles WHERE name = ?", arguments: [name])
    }

    /// Another profile than `id` with this name, if any.
    static func id(named name: String, except id: Int64, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM rate_profiles WHERE name = ? AND id != ?", arguments: [name, id])
    }

    static func id(named name: String, type: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM rate_profiles WHERE name = ? AND type = ?", arguments: [name, type])
    }

    static func nameAndType(_ db: Database, id: Int64) throws -> (name: String, type: String)? {
        try db.cachedRow(sql: "SELECT name, type FROM rate_profiles WHERE id = ?", arguments: [id]).map { ($0[0], $0[1]) }
    }

    static func type(_ db: Database, id: Int64) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT type FROM rate_profiles WHERE id = ?", arguments: [id])
    }

    /// The name of a profile with an id above `id` (one the user added), if any.
    static func nameAbove(_ db: Database, id: Int64) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT name FROM rate_profiles WHERE id > ? LIMIT 1", arguments: [id])
    }

    /// The defaults of a type other than `id`.
    static func otherDefaults(_ db: Database, type: String, except id: Int64) throws -> [RateProfileRow] {
        try db.cachedRows(sql: "SELECT * FROM rate_profiles WHERE type = ? AND is_default = 1 AND id != ?", arguments: [type, id]).map { try RateProfileRow(row: $0) }
    }

    /// Every default profile's id and type, by id.
    static func defaults(_ db: Database) throws -> [(id: Int64, type: String)] {
        try Row.fetchAll(db, sql: "SELECT id, type FROM rate_profiles WHERE is_default = 1 ORDER BY id").map { ($0[0], $0[1]) }
    }

    /// The profiles of a type whose default flag making `id` the default would change.
    static func changedByDefault(_ db: Database, type: String, id: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM rate_profiles WHERE type = ? AND is_default != (id = ?)", arguments: [type, id])
    }

    /// Makes `id` the one default of its type.
    static func makeDefault(_ db: Database, id: Int64, type: String) throws {
        try db.execute(cached: "UPDATE rate_profiles SET is_default = (id = ?) WHERE type = ?", arguments: [id, type])
    }

    /// The moment a rate was last stored in the profile.
    static func touch(_ db: Database, id: Int64, now: String) throws {
        try db.execute(cached: "UPDATE rate_profiles SET last_updated = ? WHERE id = ?", arguments: [now, id])
    }

    /// As `touch`, unless the profile was updated later.
    static func touch(_ db: Database, id: Int64, ifLaterThanStored moment: String) throws {
        try db.execute(cached: "UPDATE rate_profiles SET last_updated = ? WHERE id = ? AND (last_updated IS NULL OR last_updated < ?)",
                       arguments: [moment, id, moment])
    }

    var record: RateProfileRecord {
        RateProfileRecord(id: id ?? 0, name: name, type: ExchangeMode(rawValue: type) ?? .manual, primarySource: primarySource, notes: notes,
                          isDefault: isDefault, lastUpdated: lastUpdated)
    }
}
