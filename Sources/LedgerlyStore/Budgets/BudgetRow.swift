import Foundation
import GRDB
import LedgerlyProtocol

/// A row of `budgets`: the one type that reads and writes the table, and, with the budget's
/// limit history (`BudgetLimitRow`) and its category's name, the one place a stored budget
/// becomes its wire record.
struct BudgetRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "budgets"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    static let defaultThresholds = [50, 80, 100]

    enum Columns {
        static let id = Column("id")
        static let categoryId = Column("category_id")
        static let limitMinor = Column("limit_minor")
        static let currency = Column("currency")
        static let thresholds = Column("thresholds")
        static let carryOver = Column("carry_over")
        static let startMonth = Column("start_month")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var categoryId: Int64
    /// The first limit, kept for schema compatibility; the history is in `budget_limits` (D82).
    var limitMinor: Int64
    var currency: String
    /// JSON array of percentages, ascending.
    var thresholds: String
    var carryOver: Bool
    var startMonth: String
    var createdAt: String
    var updatedAt: String

    init(id: Int64? = nil, categoryId: Int64, limitMinor: Int64, currency: String, thresholds: [Int], carryOver: Bool, startMonth: String,
         createdAt: String, updatedAt: String) throws {
        self.id = id
        self.categoryId = categoryId
        self.limitMinor = limitMinor
        self.currency = currency
        self.thresholds = String(decoding: try JSONEncoder().encode(thresholds), as: UTF8.self)
        self.carryOver = carryOver
        self.startMonth = startMonth
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var thresholdList: [Int] { (try? JSONDecoder().decode([Int].self, from: Data(thresholds.utf8))) ?? Self.defaultThresholds }

    /// The budget with its limit history; `limit` and `currency` are the limit in force in
    /// `currentMonth` (the first one, for a budget that starts later).
    func record(categoryName: String, limits: [BudgetLimit], currentMonth: String) -> BudgetRecord {
        let current = limits.last { $0.fromMonth <= currentMonth } ?? limits[0]
        return BudgetRecord(
            id: id ?? 0, categoryId: categoryId, categoryName: categoryName, limit: current.limit, currency: current.currency,
            thresholds: thresholdList, carryOver: carryOver, startMonth: startMonth, createdAt: createdAt, updatedAt: updatedAt, limits: limits)
    }
}

/// A row of `budget_limits`: one limit of a budget, in force from its month on (D82).
struct BudgetLimitRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "budget_limits"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let budgetId = Column("budget_id")
        static let fromMonth = Column("from_month")
        static let limitMinor = Column("limit_minor")
        static let currency = Column("currency")
    }

    var budgetId: Int64
    var fromMonth: String
    var limitMinor: Int64
    var currency: String

    init(budgetId: Int64, fromMonth: String, limitMinor: Int64, currency: String) {
        self.budgetId = budgetId
        self.fromMonth = fromMonth
        self.limitMinor = limitMinor
        self.currency = currency
    }

    var limit: BudgetLimit { BudgetLimit(fromMonth: fromMonth, limit: InputRules.format(limitMinor, currency), currency: currency) }

    /// Every limit a budget has had, oldest first (never empty: a budget starts with one).
    /// Cached SQL: budget evaluation reads it for each budget a change touches.
    static func history(_ db: Database, budgetId: Int64) throws -> [BudgetLimit] {
        let limits = try db.cachedRows(sql: "SELECT * FROM budget_limits WHERE budget_id = ? ORDER BY from_month", arguments: [budgetId]).map { try BudgetLimitRow(row: $0).limit }
        guard !limits.isEmpty else { throw LedgerError.broken("budget \(budgetId) has no limit") }
        return limits
    }
}

extension BudgetRow {
    /// The budget of a category, if it has one (a category has at most one).
    static func id(ofCategory categoryId: Int64, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM budgets WHERE category_id = ?", arguments: [categoryId])
    }

    /// The category a budget is for; nil when there is no such budget.
    static func categoryId(_ db: Database, id: Int64) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT category_id FROM budgets WHERE id = ?", arguments: [id])
    }

    // MARK: With the category's name (what a budget's wire record needs)

    /// A budget and its category's name.
    typealias Named = (budget: BudgetRow, categoryName: String)

    private static let withCategorySQL = "SELECT b.*, c.name AS category_name FROM budgets b JOIN categories c ON c.id = b.category_id"

    private static func named(_ row: Row) throws -> Named { (try BudgetRow(row: row), row["category_name"]) }

    static func withCategoryName(_ db: Database, id: Int64) throws -> Named? {
        try db.cachedRow(sql: "\(withCategorySQL) WHERE b.id = ?", arguments: [id]).map(named)
    }

    /// The budget of a category, if it has one.
    static func withCategoryName(_ db: Database, categoryId: Int64) throws -> Named? {
        try db.cachedRow(sql: "\(withCategorySQL) WHERE b.category_id = ?", arguments: [categoryId]).map(named)
    }

    /// Every budget, by its category's name (regardless of case).
    static func allWithCategoryName(_ db: Database) throws -> [Named] {
        try db.cachedRows(sql: "\(withCategorySQL) ORDER BY c.name COLLATE NOCASE").map(named)
    }

    /// The budgets among `ids` (every budget when nil) whose category is among `categoryIds`
    /// (any when nil), by their category's name (regardless of case); `budget.status`'s read of
    /// the few budgets a change touches.
    static func withCategoryName(_ db: Database, ids: [Int64]?, categoryIds: [Int64]?) throws -> [Named] {
        try Row.fetchAll(db, sql: """
            \(withCategorySQL)
            WHERE (? OR b.id IN (SELECT value FROM json_each(?))) AND (? OR b.category_id IN (SELECT value FROM json_each(?)))
            ORDER BY c.name COLLATE NOCASE
            """, arguments: [ids == nil, "\(ids ?? [])", categoryIds == nil, "\(categoryIds ?? [])"]).map(named)
    }
}
