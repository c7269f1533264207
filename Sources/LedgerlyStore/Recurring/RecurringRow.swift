import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `recurring`: the one type that reads and writes the table, and the one place a
/// stored template becomes its wire record.
struct RecurringRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "recurring"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let template = Column("template")
        static let frequency = Column("frequency")
        static let every = Column("every")
        static let startDate = Column("start_date")
        static let endDate = Column("end_date")
        static let nextIndex = Column("next_index")
        static let nextRun = Column("next_run")
        static let mode = Column("mode")
        static let paused = Column("paused")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var name: String
    /// The transaction to post, as JSON text (written from a decoded `RecurringTemplate`).
    var template: String
    var frequency: String
    var every: Int
    var startDate: String
    var endDate: String?
    /// Which occurrence comes next (0 is the start date); `nextRun` is its date, nil when finished.
    var nextIndex: Int
    var nextRun: String?
    var mode: String
    var paused: Bool
    var createdAt: String
    var updatedAt: String

    init(id: Int64? = nil, name: String, template: RecurringTemplate, frequency: RecurrenceFrequency, every: Int, startDate: String, endDate: String?,
         nextIndex: Int, nextRun: String?, mode: RecurrenceMode, paused: Bool, createdAt: String, updatedAt: String) throws {
        self.id = id
        self.name = name
        self.template = String(decoding: try MessageCoding.encode(template), as: UTF8.self)
        self.frequency = frequency.rawValue
        self.every = every
        self.startDate = startDate
        self.endDate = endDate
        self.nextIndex = nextIndex
        self.nextRun = nextRun
        self.mode = mode.rawValue
        self.paused = paused
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var record: RecurringRecord {
        let decoded = (try? MessageCoding.decoder().decode(RecurringTemplate.self, from: Data(template.utf8)))
            ?? RecurringTemplate(kind: .expense, walletId: 0, amount: "0")  // unreachable: always written from a decoded template
        return RecurringRecord(
            id: id ?? 0, name: name, template: decoded, frequency: RecurrenceFrequency(rawValue: frequency) ?? .monthly,
            every: every, startDate: startDate, endDate: endDate, nextRun: nextRun,
            mode: RecurrenceMode(rawValue: mode) ?? .post, paused: paused, createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension RecurringRow {
    /// The template with this id; refused as not found, naming `field`.
    static func find(_ db: Database, id: Int64, field: FieldPath) throws -> RecurringRow {
        guard let row = try fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no recurring transaction \(id); see `ledgerly recurring list`", field: field)
        }
        return row
    }

    /// The template named exactly `name`, if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM recurring WHERE name = ?", arguments: [name])
    }
}
