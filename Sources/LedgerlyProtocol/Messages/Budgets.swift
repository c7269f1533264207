/// A monthly budget for an expense category (its subcategories count towards it). It applies to
/// every month from `startMonth` on, starting afresh each month; with `carryOver`, what was left
/// unspent adds to the next month and an overspend is taken from it. Its limit has a history
/// (`limits`): each month is judged, and carried over, with the limit in force that month.
public struct BudgetRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var categoryId: Int64
    public var categoryName: String
    /// The monthly limit in force this month (the first one, for a budget that starts later),
    /// a decimal string in `currency`.
    public var limit: String
    public var currency: String
    /// The percentages that raise an alert when spending reaches them (default 50, 80, 100).
    public var thresholds: [Int]
    public var carryOver: Bool
    /// "YYYY-MM": the first month it applies to.
    public var startMonth: String
    public var createdAt: String
    public var updatedAt: String
    /// Every limit the budget has had, oldest first: each applies from its month until the next
    /// one's. The first starts at `startMonth`. Absent in a record from before limit histories
    /// (an older export): then `limit` applies from `startMonth` on.
    public var limits: [BudgetLimit]?

    public init(id: Int64, categoryId: Int64, categoryName: String, limit: String, currency: String, thresholds: [Int], carryOver: Bool, startMonth: String, createdAt: String, updatedAt: String, limits: [BudgetLimit]? = nil) {
        self.id = id
        self.categoryId = categoryId
        self.categoryName = categoryName
        self.limit = limit
        self.currency = currency
        self.thresholds = thresholds
        self.carryOver = carryOver
        self.startMonth = startMonth
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.limits = limits
    }
}

/// One limit in a budget's history.
public struct BudgetLimit: Codable, Hashable, Sendable {
    /// "YYYY-MM": the first month this limit applies to.
    public var fromMonth: String
    /// Positive decimal string in `currency`.
    public var limit: String
    public var currency: String

    public init(fromMonth: String, limit: String, currency: String) {
        self.fromMonth = fromMonth
        self.limit = limit
        self.currency = currency
    }
}

/// `budget.set`: creates the category's budget, or changes it (one budget per category).
public struct BudgetSetRequest: WriteRequest, Hashable {
    public typealias Reply = BudgetRecord
    public static let messageType: MessageType = "budget.set"
    public var categoryId: Int64
    /// Positive decimal string.
    public var limit: String
    /// Defaults to the base currency.
    public var currency: String?
    /// 1...1000 each, no repeats; default [50, 80, 100]; [] for no alerts.
    public var thresholds: [Int]?
    /// Default false.
    public var carryOver: Bool?
    /// "YYYY-MM": the first month this limit applies to; default the current month. For a new
    /// budget it is also where the budget starts. For an existing one it adds to the limit
    /// history: months before it keep the limit they had (a month before the budget's start
    /// moves the start back); a later change already in the history stays in force from its month.
    public var startMonth: String?

    public init(categoryId: Int64, limit: String, currency: String? = nil, thresholds: [Int]? = nil, carryOver: Bool? = nil, startMonth: String? = nil) {
        self.categoryId = categoryId
        self.limit = limit
        self.currency = currency
        self.thresholds = thresholds
        self.carryOver = carryOver
        self.startMonth = startMonth
    }
}

/// `budget.list`
public struct BudgetListRequest: ReadRequest, Hashable {
    public typealias Reply = BudgetListReply
    public static let messageType: MessageType = "budget.list"
    public init() {}
}

public struct BudgetListReply: Codable, Hashable, Sendable {
    public var budgets: [BudgetRecord]
    public init(budgets: [BudgetRecord]) { self.budgets = budgets }
}

/// `budget.delete`: removes a budget (its alerts stay in the alert log).
public struct BudgetDeleteRequest: WriteRequest, Hashable {
    public typealias Reply = BudgetRecord
    public static let messageType: MessageType = "budget.delete"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `budget.status`: each budget's month in the base currency.
public struct BudgetStatusRequest: ReadRequest, Hashable {
    public typealias Reply = BudgetStatusReply
    public static let messageType: MessageType = "budget.status"
    /// "YYYY-MM"; default the current month.
    public var month: String?
    /// Only these budgets.
    public var budgetIds: [Int64]?
    /// Only the budgets these categories count towards: each one's own and its ancestors' (the
    /// alerts service asks for the ones a transaction touches).
    public var categoryIds: [Int64]?

    public init(month: String? = nil, budgetIds: [Int64]? = nil, categoryIds: [Int64]? = nil) {
        self.month = month
        self.budgetIds = budgetIds
        self.categoryIds = categoryIds
    }
}

public struct BudgetStatusReply: Codable, Hashable, Sendable {
    public var month: String
    public var baseCurrency: String
    public var budgets: [BudgetMonth]
    public init(month: String, baseCurrency: String, budgets: [BudgetMonth]) {
        self.month = month
        self.baseCurrency = baseCurrency
        self.budgets = budgets
    }
}

/// One budget in one month; every amount is a decimal string in the base currency.
public struct BudgetMonth: Codable, Hashable, Sendable {
    public var budget: BudgetRecord
    /// The monthly limit in the base currency.
    public var limit: String
    /// Brought from earlier months with carry-over: positive unspent, negative overspent.
    public var carried: String
    /// `limit` + `carried`: what may be spent this month.
    public var available: String
    /// Expenses minus refunds in the category and its subcategories, split parts included,
    /// transfers excluded, at each transaction's stored base amount.
    public var spent: String
    /// `available` - `spent` (negative when over).
    public var remaining: String
    /// `spent` as a percentage of `available`, one decimal ("80.0"); nil when nothing is available.
    public var percent: String?
    /// The thresholds reached (all of them when spending exceeds an empty or negative allowance).
    public var reached: [Int]
    /// Transactions in the month not counted because their base amount still waits for a rate.
    public var uncounted: Int

    public init(budget: BudgetRecord, limit: String, carried: String, available: String, spent: String, remaining: String, percent: String?, reached: [Int], uncounted: Int) {
        self.budget = budget
        self.limit = limit
        self.carried = carried
        self.available = available
        self.spent = spent
        self.remaining = remaining
        self.percent = percent
        self.reached = reached
        self.uncounted = uncounted
    }
}
