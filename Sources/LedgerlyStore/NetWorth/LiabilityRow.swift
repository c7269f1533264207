import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `liabilities`: the one type that reads and writes the table, and the one place a
/// stored liability becomes its wire record (its balance from `liability_entries`).
struct LiabilityRow: Codable, NetWorthItemRow {
    static let databaseTableName = "liabilities"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// Its columns by name: `NetWorthItemColumns`, which both item tables share.
    typealias Columns = NetWorthItemColumns

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

    static let itemName = "liability"
    static let listCommand = "liability"

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func itemRecord(_ db: Database, withHistory: Bool) throws -> LiabilityRecord { try record(db, withHistory: withHistory) }

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
