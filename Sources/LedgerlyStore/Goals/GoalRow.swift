import Foundation
import GRDB
import LedgerlyProtocol

/// A row of `goals`: the one type that reads and writes the table, and the place of every
/// statement on it (D454). Its wire record also needs the sum of its contributions and today
/// (progress and pace): `GoalHandlers.record` adds them.
struct GoalRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "goals"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let targetMinor = Column("target_minor")
        static let currency = Column("currency")
        static let deadline = Column("deadline")
        static let walletId = Column("wallet_id")
        static let categoryId = Column("category_id")
        static let autoFund = Column("auto_fund")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var name: String
    var targetMinor: Int64
    var currency: String
    var deadline: String?
    var walletId: Int64?
    var categoryId: Int64?
    /// The auto-fund rule as JSON text, or nil.
    var autoFund: String?
    var createdAt: String
    var updatedAt: String

    init(id: Int64? = nil, name: String, targetMinor: Int64, currency: String, deadline: String?, walletId: Int64?, categoryId: Int64?,
         autoFund: AutoFundRule?, createdAt: String, updatedAt: String) throws {
        self.id = id
        self.name = name
        self.targetMinor = targetMinor
        self.currency = currency
        self.deadline = deadline
        self.walletId = walletId
        self.categoryId = categoryId
        self.autoFund = try autoFund.map { String(decoding: try MessageCoding.encode($0), as: UTF8.self) }
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var autoFundRule: AutoFundRule? { autoFund.flatMap { try? MessageCoding.decoder().decode(AutoFundRule.self, from: Data($0.utf8)) } }

    static func find(_ db: Database, id: Int64) throws -> GoalRow? {
        try db.cachedRow(sql: "SELECT * FROM goals WHERE id = ?", arguments: [id]).map { try GoalRow(row: $0) }
    }

    /// Every goal, by name.
    static func all(_ db: Database) throws -> [GoalRow] {
        try db.cachedRows(sql: "SELECT * FROM goals ORDER BY name").map { try GoalRow(row: $0) }
    }

    /// The id of the goal named exactly `name`, if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM goals WHERE name = ?", arguments: [name])
    }

    /// The goal's currency; nil when there is no such goal.
    static func currency(_ db: Database, id: Int64) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT currency FROM goals WHERE id = ?", arguments: [id])
    }

    /// Marks the goal changed (a contribution added or withdrawn) without reading it first.
    static func touch(_ db: Database, id: Int64, at now: String) throws {
        try db.execute(cached: "UPDATE goals SET updated_at = ? WHERE id = ?", arguments: [now, id])
    }
}

/// A row of `goal_contributions`: money put towards a goal, by hand or by auto-fund; withdrawn
/// (not deleted) when the transaction that moved it is deleted (D76).
struct GoalContributionRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "goal_contributions"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let goalId = Column("goal_id")
        static let amountMinor = Column("amount_minor")
        static let date = Column("date")
        static let transactionId = Column("tx_id")
        static let autoFundMonth = Column("autofund_month")
        static let createdAt = Column("created_at")
        static let withdrawnAt = Column("withdrawn_at")
    }

    /// Two columns are not their property's name in snake case: `tx_id` and `autofund_month`.
    enum CodingKeys: String, CodingKey {
        case id, goalId, amountMinor, date, createdAt, withdrawnAt
        case transactionId = "txId"
        case autoFundMonth = "autofundMonth"
    }

    var id: Int64?
    var goalId: Int64
    var amountMinor: Int64
    var date: String
    var transactionId: Int64?
    /// The month an auto-fund contribution is for: unique per goal, so a month is funded once.
    var autoFundMonth: String?
    var createdAt: String
    var withdrawnAt: String?

    init(id: Int64? = nil, goalId: Int64, amountMinor: Int64, date: String, transactionId: Int64?, autoFundMonth: String?, createdAt: String, withdrawnAt: String?) {
        self.id = id
        self.goalId = goalId
        self.amountMinor = amountMinor
        self.date = date
        self.transactionId = transactionId
        self.autoFundMonth = autoFundMonth
        self.createdAt = createdAt
        self.withdrawnAt = withdrawnAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// What the goal's contributions that still count add up to, in its minor units.
    static func countingSum(_ db: Database, goalId: Int64) throws -> Int64 {
        try db.cachedValue(Int64.self, sql: "SELECT coalesce(sum(amount_minor), 0) FROM goal_contributions WHERE goal_id = ? AND withdrawn_at IS NULL", arguments: [goalId]) ?? 0
    }

    /// Every contribution to the goal, withdrawn ones too, by date, then by when each was recorded
    /// (the same on every syncing device), not by local id, which devices number apart (D488).
    static func all(_ db: Database, goalId: Int64) throws -> [GoalContributionRow] {
        try db.cachedRows(sql: "SELECT * FROM goal_contributions WHERE goal_id = ? ORDER BY date, created_at, id", arguments: [goalId]).map { try GoalContributionRow(row: $0) }
    }

    /// The contributions that still count whose money the transaction moved, with their goal's
    /// currency, in id order.
    static func counting(movedBy transactionId: Int64, _ db: Database) throws -> [(contribution: GoalContributionRow, currency: String)] {
        try db.cachedRows(
            sql: "SELECT gc.*, g.currency FROM goal_contributions gc JOIN goals g ON g.id = gc.goal_id WHERE gc.tx_id = ? AND gc.withdrawn_at IS NULL ORDER BY gc.id",
            arguments: [transactionId]).map { (try GoalContributionRow(row: $0), $0["currency"]) }
    }

    /// Every contribution to the goal, withdrawn ones too, by id.
    static func ids(ofGoal goalId: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM goal_contributions WHERE goal_id = ? ORDER BY id", arguments: [goalId])
    }

    /// The goal and month of an auto-fund contribution; nil for one made by hand, or none.
    static func autoFundMonth(id: Int64, _ db: Database) throws -> (goalId: Int64, month: String)? {
        guard let row = try db.cachedRow(sql: "SELECT goal_id, autofund_month FROM goal_contributions WHERE id = ?", arguments: [id]),
              let month = row[1] as String? else { return nil }
        return (row[0], month)
    }

    /// The goal and month of the auto-fund contribution whose money the transaction moved, if any.
    static func autoFundMonth(movedBy transactionId: Int64, _ db: Database) throws -> (goalId: Int64, month: String)? {
        guard let row = try db.cachedRow(sql: "SELECT goal_id, autofund_month FROM goal_contributions WHERE tx_id = ? AND autofund_month IS NOT NULL", arguments: [transactionId])
        else { return nil }
        return (row[0], row[1])
    }

    /// Whether the goal has had its auto-fund contribution for `month`.
    static func autoFunded(_ db: Database, goalId: Int64, month: String) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT 1 FROM goal_contributions WHERE goal_id = ? AND autofund_month = ?", arguments: [goalId, month]) ?? false
    }

    /// The contribution as the protocol sends it, its amount in the goal's currency.
    func record(currency: String) -> GoalContributionRecord {
        GoalContributionRecord(id: id ?? 0, goalId: goalId, amount: InputRules.format(amountMinor, currency), date: date,
                               transactionId: transactionId, autoFundMonth: autoFundMonth, createdAt: createdAt, withdrawnAt: withdrawnAt)
    }
}
