import LedgerlyCore

/// `report.balance`: every wallet's balance in its own currency and valued in the base currency
/// with the rate in force now (net worth).
public struct BalanceReportRequest: ReadRequest, Hashable {
    public typealias Reply = BalanceReport
    public static let messageType: MessageType = "report.balance"
    /// Archived wallets are left out unless asked for.
    public var includeArchived: Bool?
    public init(includeArchived: Bool? = nil) { self.includeArchived = includeArchived }
}

public struct WalletBalance: Codable, Hashable, Sendable {
    public var walletId: Int64
    public var name: String
    public var currency: String
    public var balance: String
    /// The balance in the base currency at the rate in force now; nil while no rate is known.
    public var baseValue: String?
    /// The rate used (absent for wallets in the base currency).
    public var rate: RateSnapshot?
    public var includeInNetWorth: Bool
    public var archived: Bool

    public init(walletId: Int64, name: String, currency: String, balance: String, baseValue: String?, rate: RateSnapshot?, includeInNetWorth: Bool, archived: Bool) {
        self.walletId = walletId
        self.name = name
        self.currency = currency
        self.balance = balance
        self.baseValue = baseValue
        self.rate = rate
        self.includeInNetWorth = includeInNetWorth
        self.archived = archived
    }
}

public struct BalanceReport: Codable, Hashable, Sendable {
    public var baseCurrency: String?
    public var wallets: [WalletBalance]
    /// Investment accounts that hold anything, valued like `invest.holdings`.
    public var investments: [InvestmentBalance]
    /// The base values of the wallets and investment accounts included in net worth, summed:
    /// "Wallets and investments". Not net worth, which also counts manual assets and liabilities
    /// and values holdings directly in the base currency (`networth.get`, D411).
    public var total: String?
    /// Wallets counted in net worth whose currency has no rate to the base currency yet (left out of `total`).
    public var unvalued: [Int64]
    /// Investment accounts counted in net worth with a holding that has no price or no rate:
    /// only their valued holdings are in `total` (their `warnings` say which are not).
    public var unvaluedInvestments: [Int64]
    public var asOf: String

    public init(baseCurrency: String?, wallets: [WalletBalance], investments: [InvestmentBalance], total: String?, unvalued: [Int64], unvaluedInvestments: [Int64], asOf: String) {
        self.baseCurrency = baseCurrency
        self.wallets = wallets
        self.investments = investments
        self.total = total
        self.unvalued = unvalued
        self.unvaluedInvestments = unvaluedInvestments
        self.asOf = asOf
    }
}

/// One investment account in `report.balance`.
public struct InvestmentBalance: Codable, Hashable, Sendable {
    public var accountId: Int64
    public var name: String
    /// The account's own base currency and its valued holdings' value in it; nil when none of
    /// its holdings could be valued (no price, no rate): not valued, never 0 (D410).
    public var currency: String
    public var value: String?
    /// In the ledger's base currency at the latest rate; nil when no rate is known.
    public var baseValue: String?
    public var includeInNetWorth: Bool
    public var archived: Bool
    public var warnings: [String]

    public init(accountId: Int64, name: String, currency: String, value: String?, baseValue: String?, includeInNetWorth: Bool, archived: Bool, warnings: [String]) {
        self.accountId = accountId
        self.name = name
        self.currency = currency
        self.value = value
        self.baseValue = baseValue
        self.includeInNetWorth = includeInNetWorth
        self.archived = archived
        self.warnings = warnings
    }
}

/// `report.categories`: spending and income per category and month, in the base currency, from
/// the stored base amounts. Parents include their children; split parts count in their own
/// categories; transfers are left out. Spending is expenses minus refunds.
public struct CategoryReportRequest: ReadRequest, Hashable {
    public typealias Reply = CategoryReport
    public static let messageType: MessageType = "report.categories"
    /// Inclusive "YYYY-MM" bounds; nil = from the first / to the last month with transactions.
    public var from: String?
    public var to: String?
    /// Only expense or only income categories; nil = both.
    public var kind: CategoryKind?
    /// Also total each category in the transactions' own currencies.
    public var byCurrency: Bool?

    public init(from: String? = nil, to: String? = nil, kind: CategoryKind? = nil, byCurrency: Bool? = nil) {
        self.from = from
        self.to = to
        self.kind = kind
        self.byCurrency = byCurrency
    }
}

/// An amount in one currency.
public struct CurrencyAmount: Codable, Hashable, Sendable {
    public var currency: String
    public var amount: String
    public init(currency: String, amount: String) {
        self.currency = currency
        self.amount = amount
    }
}

public struct CategoryReportRow: Codable, Hashable, Sendable {
    /// nil for transactions without a category ("uncategorized" of `kind`).
    public var categoryId: Int64?
    public var parentId: Int64?
    /// "Food/Groceries", as `CategoryRecord.path`
    public var path: String
    public var kind: CategoryKind
    /// 0 for a top-level category.
    public var depth: Int
    /// One amount per month of the report (same order as `CategoryReport.months`), base currency;
    /// positive = spent (expense categories) or received (income categories).
    public var months: [String]
    public var total: String
    /// With `byCurrency`: the total in each currency the transactions were in (signed the same way).
    public var byCurrency: [CurrencyAmount]?

    public init(categoryId: Int64?, parentId: Int64?, path: String, kind: CategoryKind, depth: Int, months: [String], total: String, byCurrency: [CurrencyAmount]?) {
        self.categoryId = categoryId
        self.parentId = parentId
        self.path = path
        self.kind = kind
        self.depth = depth
        self.months = months
        self.total = total
        self.byCurrency = byCurrency
    }
}

public struct CategoryReport: Codable, Hashable, Sendable {
    public var baseCurrency: String?
    /// "YYYY-MM", ascending, every month of the range.
    public var months: [String]
    /// Categories in tree order (each parent followed by its children); only those with activity.
    public var categories: [CategoryReportRow]
    /// Transactions in the range not counted because they have no base amount yet.
    public var uncounted: Int

    public init(baseCurrency: String?, months: [String], categories: [CategoryReportRow], uncounted: Int) {
        self.baseCurrency = baseCurrency
        self.months = months
        self.categories = categories
        self.uncounted = uncounted
    }
}

/// `report.cashflow`: income, expenses, net and savings rate per month, in the base currency.
/// Transfers are neither; a refund lowers expenses instead of raising income.
public struct CashFlowReportRequest: ReadRequest, Hashable {
    public typealias Reply = CashFlowReport
    public static let messageType: MessageType = "report.cashflow"
    /// Inclusive "YYYY-MM" bounds; nil = first / last month with transactions.
    public var from: String?
    public var to: String?

    public init(from: String? = nil, to: String? = nil) {
        self.from = from
        self.to = to
    }
}

public struct CashFlowMonth: Codable, Hashable, Sendable {
    /// "YYYY-MM", or "total".
    public var month: String
    public var income: String
    public var expenses: String
    /// income − expenses
    public var net: String
    /// net / income in percent, one decimal, rounded half to even; nil without income.
    public var savingsRate: String?

    public init(month: String, income: String, expenses: String, net: String, savingsRate: String?) {
        self.month = month
        self.income = income
        self.expenses = expenses
        self.net = net
        self.savingsRate = savingsRate
    }
}

public struct CashFlowReport: Codable, Hashable, Sendable {
    public var baseCurrency: String?
    public var months: [CashFlowMonth]
    public var total: CashFlowMonth
    public var uncounted: Int

    public init(baseCurrency: String?, months: [CashFlowMonth], total: CashFlowMonth, uncounted: Int) {
        self.baseCurrency = baseCurrency
        self.months = months
        self.total = total
        self.uncounted = uncounted
    }
}

/// `report.payees`: where the money goes (or comes from), by the transactions' notes.
public struct PayeeReportRequest: ReadRequest, Hashable {
    public typealias Reply = PayeeReport
    public static let messageType: MessageType = "report.payees"
    /// Inclusive "YYYY-MM-DD" bounds.
    public var from: String?
    public var to: String?
    /// Expenses (default) or income.
    public var kind: TransactionKind?
    /// 1 to 1,000, default 10.
    public var limit: Int?

    public init(from: String? = nil, to: String? = nil, kind: TransactionKind? = nil, limit: Int? = nil) {
        self.from = from
        self.to = to
        self.kind = kind
        self.limit = limit
    }
}

public struct PayeeTotal: Codable, Hashable, Sendable {
    /// The notes, as first written (notes differing only in case count together).
    public var payee: String
    public var count: Int
    /// Base currency, positive.
    public var total: String
    /// Transactions without a base amount yet (not in `total`).
    public var uncounted: Int

    public init(payee: String, count: Int, total: String, uncounted: Int) {
        self.payee = payee
        self.count = count
        self.total = total
        self.uncounted = uncounted
    }
}

public struct PayeeReport: Codable, Hashable, Sendable {
    public var baseCurrency: String?
    public var kind: TransactionKind
    public var payees: [PayeeTotal]

    public init(baseCurrency: String?, kind: TransactionKind, payees: [PayeeTotal]) {
        self.baseCurrency = baseCurrency
        self.kind = kind
        self.payees = payees
    }
}
