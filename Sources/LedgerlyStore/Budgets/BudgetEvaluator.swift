import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `budget.status`: each budget's month, counted in SQL over the stored base amounts.
///
/// Spending is expenses minus refunds (income booked to an expense category) in the budget's
/// category and all its subcategories, in the base currency at each transaction's own snapshot;
/// split parts count in their own categories (each part's share of the base amount, allocated so
/// the parts add up exactly); transfers never count. A transaction whose base amount still waits
/// for a rate is not counted, and the month says how many there are (`uncounted`).
enum BudgetEvaluator {
    static func status(_ request: BudgetStatusRequest, _ context: ReadContext) throws -> BudgetStatusReply {
        let db = context.db, now = context.date
        guard let base = try SettingsHandlers.baseCurrency(db) else {
            throw LedgerError.notSetUp("Ledgerly is not set up yet: run `ledgerly setup` first")
        }
        let currentMonth = String(Timestamp.today(at: now).prefix(7))
        let month = try request.month.map { try BudgetHandlers.month($0, field: .body("month")) } ?? currentMonth
        // Only the budgets asked for are read: the alerts service asks for one or two per change.
        var budgets: [BudgetRecord]
        for (name, ids) in [("budgetIds", request.budgetIds), ("categoryIds", request.categoryIds)] {
            for (index, id) in (ids ?? []).enumerated() {
                _ = try InputRules.positiveId(id, field: .body(name)[index])
            }
        }
        if request.budgetIds != nil || request.categoryIds != nil {
            let categories = try Array(ancestorsAndSelf(db, of: request.categoryIds ?? []))
            budgets = try BudgetRow.withCategoryName(db, ids: request.budgetIds, categoryIds: request.categoryIds == nil ? nil : categories)
                .map { try BudgetHandlers.record(db, $0, currentMonth: currentMonth) }
        } else {
            budgets = try BudgetHandlers.list(BudgetListRequest(), context).budgets
        }
        budgets = budgets.filter { $0.startMonth <= month }
        // A budget whose limit cannot be converted yet (no rate for its currency) is left out,
        // not allowed to fail the others.
        let months = try budgets.compactMap { try evaluate($0, month: month, currentMonth: currentMonth, base: base, db: db, now: now) }
        return BudgetStatusReply(month: month, baseCurrency: base, budgets: months)
    }

    /// One budget's month. Each month is judged with the limit in force in it, and carry-over
    /// adds up every earlier month with that month's own limit (D82).
    static func evaluate(_ budget: BudgetRecord, month: String, currentMonth: String, base: String, db: Database, now: Date) throws -> BudgetMonth? {
        guard let limit = try limitInBase(budget, month: month, currentMonth: currentMonth, base: base, db: db, now: now) else { return nil }
        var carried: Int64 = 0
        if budget.carryOver {
            var earlier = budget.startMonth
            while earlier < month {
                // A month whose limit cannot be converted yet carries nothing over.
                if let earlierLimit = try limitInBase(budget, month: earlier, currentMonth: currentMonth, base: base, db: db, now: now) {
                    let (spent, _) = try spending(db, categoryId: budget.categoryId, month: earlier)
                    carried = clamp(Int128(earlierLimit) + Int128(carried) - Int128(spent))
                }
                earlier = LedgerMonth.next(earlier)
            }
        }
        let (spent, uncounted) = try spending(db, categoryId: budget.categoryId, month: month)
        let available = clamp(Int128(limit) + Int128(carried))
        var percent: String?
        var reached: [Int]
        if available > 0 {
            percent = oneDecimalPercent(spent, of: available)
            reached = budget.thresholds.filter { Int128(spent) * 100 >= Int128($0) * Int128(available) }
        } else {
            reached = spent > 0 ? budget.thresholds : []
        }
        return BudgetMonth(
            budget: budget, limit: InputRules.format(limit, base), carried: InputRules.format(carried, base),
            available: InputRules.format(available, base), spent: InputRules.format(spent, base),
            remaining: InputRules.format(clamp(Int128(available) - Int128(spent)), base), percent: percent, reached: reached, uncounted: uncounted)
    }

    /// The month's limit in the base currency: the limit in force that month, as set, or
    /// converted with the rate in force at the end of that month (now, for the current month).
    private static func limitInBase(_ budget: BudgetRecord, month: String, currentMonth: String, base: String, db: Database, now: Date) throws -> Int64? {
        let inForce = BudgetHandlers.limit(in: month, of: budget)
        let currency = try InputRules.currency(inForce.currency, field: .body("budgetIds"))
        let limit = try InputRules.amount(inForce.limit, currency: currency, field: .body("budgetIds"))
        guard inForce.currency != base else { return limit.minorUnits }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: .body("budgetIds")), now: now)
        let endOfMonth = month >= currentMonth ? nil : Timestamp.parse(LedgerMonth.lastDay(of: month))
        return try lookup.convertIfKnown(limit, to: try InputRules.currency(base, field: .body("budgetIds")), base: base, at: endOfMonth, field: .body("budgetIds"))?.0.result.minorUnits
    }

    /// Spending (positive) in minor units of the base currency, and how many transactions could
    /// not be counted yet.
    ///
    /// Read from `ledger_totals`, which every write keeps per month and category (split parts in
    /// their own categories with their shares of the base amount, the same `ProportionalShares`
    /// rule), so a budget's month costs the same however many transactions it holds: the alerts
    /// service evaluates on every change. Transfers never count. The uncounted ones are read from
    /// the index of transactions still waiting for a rate.
    static func spending(_ db: Database, categoryId: Int64, month: String) throws -> (Int64, Int) {
        (try LedgerTotals.spentInBase(db, categoryId: categoryId, month: month), try TransactionRow.waitingInSubtree(db, categoryId: categoryId, month: month))
    }

    /// `spent` as a percentage of `available` with one decimal, rounded half to even.
    static func oneDecimalPercent(_ spent: Int64, of available: Int64) -> String { Percentage.oneDecimal(spent, of: available) }

    /// Every category in `ids` and all their ancestors.
    static func ancestorsAndSelf(_ db: Database, of ids: [Int64]) throws -> Set<Int64> {
        var found = Set<Int64>()
        for id in ids { found.formUnion(try CategoryRow.selfAndAncestors(db, id: id)) }
        return found
    }

    private static func clamp(_ value: Int128) -> Int64 {
        Int64(clamping: value)
    }
}
