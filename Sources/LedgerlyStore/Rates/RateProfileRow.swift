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

    var record: RateProfileRecord {
        RateProfileRecord(id: id ?? 0, name: name, type: ExchangeMode(rawValue: type) ?? .manual, primarySource: primarySource, notes: notes,
                          isDefault: isDefault, lastUpdated: lastUpdated)
    }
}
