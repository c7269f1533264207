import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `wallets`: the one type that reads and writes the table's columns, and the one place
/// a stored wallet becomes its wire record (`record`). Other features ask it for wallets
/// (`find`, `active`) instead of reaching into the wallet handlers.
struct WalletRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "wallets"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let icon = Column("icon")
        static let currency = Column("currency")
        static let type = Column("type")
        static let startingBalanceMinor = Column("starting_balance_minor")
        static let balanceMinor = Column("balance_minor")
        static let institution = Column("institution")
        static let sortOrder = Column("sort_order")
        static let includeInNetWorth = Column("include_in_net_worth")
        static let archived = Column("archived")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var name: String
    var icon: String?
    var currency: String
    /// Stored as text; a type this version does not know reads as `custom`.
    var type: String
    var startingBalanceMinor: Int64
    /// The starting balance plus every transaction's effect, kept by each write (`adjustBalance`).
    var balanceMinor: Int64
    var institution: String?
    var sortOrder: Int
    var includeInNetWorth: Bool
    var archived: Bool
    var createdAt: String
    var updatedAt: String

    init(id: Int64? = nil, name: String, icon: String?, currency: String, type: String, startingBalanceMinor: Int64, balanceMinor: Int64,
         institution: String?, sortOrder: Int, includeInNetWorth: Bool, archived: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.icon = icon
        self.currency = currency
        self.type = type
        self.startingBalanceMinor = startingBalanceMinor
        self.balanceMinor = balanceMinor
        self.institution = institution
        self.sortOrder = sortOrder
        self.includeInNetWorth = includeInNetWorth
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Read explicitly rather than through `Decodable`: every transaction write reads its wallet.
    init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        icon = row[Columns.icon]
        currency = row[Columns.currency]
        type = row[Columns.type]
        startingBalanceMinor = row[Columns.startingBalanceMinor]
        balanceMinor = row[Columns.balanceMinor]
        institution = row[Columns.institution]
        sortOrder = row[Columns.sortOrder]
        includeInNetWorth = row[Columns.includeInNetWorth]
        archived = row[Columns.archived]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The wallet as the protocol sends it: amounts as decimal text in the wallet's currency.
    var record: WalletRecord {
        WalletRecord(
            id: id ?? 0, name: name, icon: icon, currency: currency, type: WalletType(rawValue: type) ?? .custom,
            startingBalance: InputRules.format(startingBalanceMinor, currency), balance: InputRules.format(balanceMinor, currency),
            institution: institution, sortOrder: sortOrder, includeInNetWorth: includeInNetWorth, archived: archived,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension WalletRow {
    /// The wallet with this id; refused as not found, naming `field`.
    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath = .body("id")) throws -> WalletRow {
        guard let wallet = try row(db, id: id) else {
            throw LedgerError.notFound("there is no wallet \(id)", field: field())
        }
        return wallet
    }

    /// The wallet with this id, if any.
    static func row(_ db: Database, id: Int64) throws -> WalletRow? {
        try db.cachedRow(sql: "SELECT * FROM wallets WHERE id = ?", arguments: [id]).map { try WalletRow(row: $0) }
    }

    /// A wallet that may receive new transactions: it exists and is not archived.
    static func active(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> WalletRow {
        let wallet = try find(db, id: id, field: field())
        guard !wallet.archived else {
            throw LedgerError.invalid("wallet '\(wallet.name)' is archived; un-archive it to add transactions", field: field())
        }
        return wallet
    }

    /// Adds `delta` minor units to a wallet's kept balance (same SQL transaction as the change),
    /// refusing a change that would take the balance beyond what can be stored. Cached SQL:
    /// every transaction write runs it.
    static func adjustBalance(_ db: Database, walletId: Int64, by delta: Int64) throws {
        let current = try db.cachedValue(Int64.self, sql: "SELECT balance_minor FROM wallets WHERE id = ?", arguments: [walletId]) ?? 0
        let (balance, overflow) = current.addingReportingOverflow(delta)
        guard !overflow, balance.magnitude < UInt64(Int64.max / 2) else {
            throw LedgerError.invalid("this would take the wallet's balance beyond what Ledgerly can store", field: .body("amount"))
        }
        try db.execute(cached: "UPDATE wallets SET balance_minor = ? WHERE id = ?", arguments: [balance, walletId])
    }

    /// Refuses a name another wallet has (names are unique ignoring case).
    static func ensureNameFree(_ db: Database, name: String, except id: Int64?) throws {
        if let existing = try db.cachedValue(Int64.self, sql: "SELECT id FROM wallets WHERE name = ? COLLATE NOCASE", arguments: [name]), existing != id {
            throw LedgerError.conflict("a wallet named '\(name)' already exists (id \(existing))", field: .body("name"))
        }
    }

    /// `report.balance`'s wallets: the ones not archived, and the archived ones that still hold
    /// money or, with `includeArchived`, all, by sort order, then name regardless of case (D78).
    static func forBalances(_ db: Database, includeArchived: Bool) throws -> [WalletRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM wallets WHERE archived = 0 OR ? OR balance_minor != 0 ORDER BY sort_order, name COLLATE NOCASE", arguments: [includeArchived])
            .map { try WalletRow(row: $0) }
    }

    /// A wallet as net worth at the end of a past day sees it (`NetWorthCalculator`).
    struct AtDay {
        let id: Int64
        let name: String
        let currency: String
        /// The kept balance, and what of it is dated after the day.
        let balanceMinor: Int64
        let laterMinor: Int64
        let includeInNetWorth: Bool
        let archived: Bool
        /// The day it was created (YYYY-MM-DD).
        let createdOn: String
        /// The date of its first transaction, if it has any.
        let firstTransactionOn: String?

        /// The balance at the end of the day.
        var balanceAtDay: Int64 { balanceMinor - laterMinor }
    }

    /// Every wallet, by sort order, then name regardless of case, then id, with its balance at
    /// the end of `day`: the maintained balance less what is dated after the day, the later
    /// months from the monthly totals kept with every write (`LedgerTotals`), the rest of the
    /// day's month from its transactions, so a month-end reads no transaction at all. One
    /// statement over the three tables (D550).
    static func atDay(_ day: String, _ db: Database) throws -> [AtDay] {
        let month = String(day.prefix(7))
        return try Row.fetchAll(db, sql: """
            SELECT w.id, w.name, w.currency, w.balance_minor, w.include_in_net_worth, w.archived, substr(w.created_at, 1, 10) AS created,
                   (SELECT COALESCE(SUM(l.wallet_minor), 0) FROM ledger_totals l WHERE l.wallet_id = w.id AND l.month > ?)
                   + (SELECT COALESCE(SUM(t.wallet_amount_minor), 0) FROM transactions t WHERE t.wallet_id = w.id AND t.date > ? AND t.date < ?) AS later,
                   (SELECT MIN(t.date) FROM transactions t WHERE t.wallet_id = w.id) AS first
            FROM wallets w ORDER BY w.sort_order, w.name COLLATE NOCASE, w.id
            """, arguments: [month, day, LedgerMonth.next(month) + "-01"]).map { row in
            AtDay(id: row["id"], name: row["name"], currency: row["currency"], balanceMinor: row["balance_minor"], laterMinor: row["later"],
                  includeInNetWorth: row["include_in_net_worth"], archived: row["archived"], createdOn: row["created"], firstTransactionOn: row["first"])
        }
    }
}
