import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `invest_accounts`: the one type that reads and writes the table, and the one place a
/// stored account becomes its wire record.
struct InvestAccountRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "invest_accounts"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let archived = Column("archived")
    }

    var id: Int64?
    var name: String
    var broker: String?
    var accountType: String
    var baseCurrency: String
    var costBasisMethod: String
    var includeInNetWorth: Bool
    var archived: Bool
    var createdAt: String
    var updatedAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var method: CostBasisMethod { CostBasisMethod(rawValue: costBasisMethod) ?? .fifo }

    var record: InvestAccountRecord {
        InvestAccountRecord(
            id: id ?? 0, name: name, broker: broker, accountType: InvestAccountType(rawValue: accountType) ?? .other, baseCurrency: baseCurrency,
            costBasisMethod: method, includeInNetWorth: includeInNetWorth, archived: archived, createdAt: createdAt, updatedAt: updatedAt)
    }

    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> InvestAccountRow {
        guard let row = try InvestAccountRow.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no investment account \(id); see `ledgerly invest account list`", field: field())
        }
        return row
    }

    /// An account that takes trades: it exists and is not archived.
    static func active(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> InvestAccountRow {
        let account = try find(db, id: id, field: field())
        guard !account.archived else {
            // `validation_failed`, as PROTOCOL.md §14 and §15 say and as a transaction in an archived wallet is.
            throw LedgerError.invalid("investment account '\(account.name)' is archived and takes no new trades", field: field())
        }
        return account
    }

    /// Every account by name (the column's NOCASE order), then id; archived ones too when asked.
    static func byName(_ db: Database, includeArchived: Bool) throws -> [InvestAccountRow] {
        let all = InvestAccountRow.order(Columns.name, Columns.id)
        return try (includeArchived ? all : all.filter(Columns.archived == false)).fetchAll(db)
    }

    /// The id of the account with this name (compared without case, as the column is), if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try InvestAccountRow.select(Columns.id, as: Int64.self).filter(Columns.name == name).fetchOne(db)
    }

    /// Every account's cost-basis method and base currency, for a replay.
    static func all(_ db: Database) throws -> [Int64: InvestAccountRow] {
        Dictionary(uniqueKeysWithValues: try InvestAccountRow.fetchAll(db).map { ($0.id ?? 0, $0) })
    }
}
