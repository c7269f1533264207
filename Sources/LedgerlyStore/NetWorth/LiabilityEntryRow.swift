import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `liability_entries`: the one type that reads and writes the table. An entry sets a
/// liability's balance or records a payment (with the wallet transaction that paid it); entries
/// are only ever added, except that sync writes a synced entry's own columns again.
struct LiabilityEntryRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "liability_entries"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let liabilityId = Column("liability_id")
        static let date = Column("date")
        static let createdAt = Column("created_at")
    }

    var id: Int64?
    var liabilityId: Int64
    var date: String
    /// `balance` or `payment` (`LiabilityEntryKind`).
    var kind: String
    /// Minor units of the liability's currency: the balance set or the amount paid.
    var amountMinor: Int64
    var walletId: Int64?
    var transactionId: Int64?
    var notes: String?
    var createdAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// One liability's entries in the order its running balance is computed: by day, then in the
    /// order they were recorded (`created_at` travels with a synced entry; local ids do not), so
    /// every device computes the same balances for payments two devices made the same day
    /// (issue 44, convergence).
    static func history(_ db: Database, liabilityId: Int64) throws -> [LiabilityEntryRow] {
        try LiabilityEntryRow.filter(Columns.liabilityId == liabilityId).order(Columns.date, Columns.createdAt, Columns.id).fetchAll(db)
    }

    /// Every entry id of one liability, in order of id.
    static func ids(ofLiability liabilityId: Int64, _ db: Database) throws -> [Int64] {
        try LiabilityEntryRow.select(Columns.id, as: Int64.self).filter(Columns.liabilityId == liabilityId).order(Columns.id).fetchAll(db)
    }

    /// One entry with its liability's currency, for sync's fields (one cached statement per entry).
    static func withCurrency(_ db: Database, id: Int64) throws -> (entry: LiabilityEntryRow, currency: String)? {
        guard let row = try db.cachedRow(sql: """
            SELECT e.liability_id, e.date, e.kind, e.amount_minor, e.notes, e.transaction_id, e.created_at, l.currency, e.wallet_id
            FROM liability_entries e JOIN liabilities l ON l.id = e.liability_id WHERE e.id = ?
            """, arguments: [id]) else { return nil }
        let entry = LiabilityEntryRow(id: id, liabilityId: row[0], date: row[1], kind: row[2], amountMinor: row[3], walletId: row[8], transactionId: row[5],
                                      notes: row[4], createdAt: row[6])
        return (entry, row[7])
    }

    /// A synced entry written again: only its own columns; a payment's transaction and wallet
    /// stay as recorded.
    static func updateSynced(_ db: Database, id: Int64, date: String, amountMinor: Int64, notes: String?, createdAt: String) throws {
        try db.execute(sql: "UPDATE liability_entries SET date = ?, amount_minor = ?, notes = ?, created_at = ? WHERE id = ?",
                       arguments: [date, amountMinor, notes, createdAt, id])
    }
}
