import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `liabilities`: the one type that reads and writes the table, and the one place a
/// stored liability becomes its wire record (its balance from `liability_entries`).
struct LiabilityRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "liabilities"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let archived = Column("archived")
    }

    var id: Int64?
    var name: String
    var liabilityType: String
    var currency: String
    var interestRate: String?
    var dueDate: String?
    var notes: String?
    var archived: Bool
    var createdAt: String
    var updatedAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> LiabilityRow {
        guard let row = try LiabilityRow.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no liability \(id); see `ledgerly liability list`", field: field())
        }
        return row
    }

    /// Every liability by name (the column's NOCASE order), then id; archived ones too when asked.
    static func byName(_ db: Database, includeArchived: Bool) throws -> [LiabilityRow] {
        let all = LiabilityRow.order(Columns.name, Columns.id)
        return try (includeArchived ? all : all.filter(Columns.archived == false)).fetchAll(db)
    }

    /// The id of the liability with this name (compared without case, as the column is), if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try LiabilityRow.select(Columns.id, as: Int64.self).filter(Columns.name == name).fetchOne(db)
    }

    /// The wire record: the balance after the latest entry; every entry when `withHistory`.
    func record(_ db: Database, withHistory: Bool) throws -> LiabilityRecord {
        let history = try LiabilityHistory.read(db, liabilityId: id ?? 0)
        let entries = history.entries.map { entry in
            LiabilityEntryRecord(
                id: entry.id, date: entry.date, kind: entry.kind, amount: InputRules.format(entry.amount, currency), balanceAfter: InputRules.format(entry.balanceAfter, currency),
                walletId: entry.walletId, transactionId: entry.transactionId, notes: entry.notes, createdAt: entry.createdAt)
        }
        return LiabilityRecord(
            id: id ?? 0, name: name, liabilityType: LiabilityType(rawValue: liabilityType) ?? .other, currency: currency,
            balance: InputRules.format(history.entries.last?.balanceAfter ?? 0, currency), balanceOn: history.entries.last?.date ?? "", interestRate: interestRate,
            dueDate: dueDate, notes: notes, archived: archived, createdAt: createdAt, updatedAt: updatedAt, history: withHistory ? entries : nil)
    }
}
