import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.categories` and `report.cashflow`, both read from `category_totals` (a few thousand
/// rows at a million transactions, read in key order), never from the transactions themselves.
/// Parent categories are rolled up here, not in the table, so moving a category under another
/// changes no stored total.
enum CategoryReporter {
    /// Uncategorised transactions are reported under these pseudo-ids, one per kind.
    private static let uncategorizedExpense: Int64 = -1
    private static let uncategorizedIncome: Int64 = -2

    static func report(_ request: CategoryReportRequest, _ db: Database) throws -> CategoryReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let range = try ReportRange(db, from: request.from, to: request.to)
        let tree = try CategoryTree(db)
        guard let first = range.first, let last = range.last else {
            return CategoryReport(baseCurrency: base, months: [], categories: [], uncounted: 0)
        }
        let byCurrency = request.byCurrency == true
        var sums = CategoryMonthSums(months: range.months, byCurrency: byCurrency)
        var uncounted = 0
        // Columns are read by position: by name, GRDB lowercases the column name on every read (D225).
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT month, category_id, kind, currency, amount_minor, base_minor, missing_base
                FROM category_totals WHERE month BETWEEN ? AND ?
                """),
            arguments: [first, last])
        // Rows come in key order (month, category, kind, currency), so the month and the category
        // change rarely from one row to the next: what they lead to (the month's column, the
        // category's kind, sign and slots) is worked out only when they change (D229).
        var month = "", column = 0
        var categoryId: Int64 = .min, known = false
        var targets: [Int] = [], sign: Int64 = 1, wanted = true
        while let row = try rows.next() {
            let rowMonth: String = row[0]
            if rowMonth != month {
                month = rowMonth
                column = sums.column(of: month)
            }
            let rowCategory: Int64 = row[1]
            // A category not in the tree (0: none) takes its kind from the transactions, which can
            // differ from one row to the next.
            if rowCategory != categoryId || !known {
                categoryId = rowCategory
                known = tree.nodes[categoryId] != nil
                let kind = categoryKind(categoryId, transactionKind: row[2], tree: tree)
                wanted = request.kind.map { $0 == kind } ?? true
                // Spending is shown positive: an expense category's effects are negative.
                sign = kind == .expense ? -1 : 1
                let ids = categoryId == 0 ? [kind == .expense ? uncategorizedExpense : uncategorizedIncome] : tree.chain(categoryId)
                targets = wanted ? ids.map { sums.slot(of: $0) } : []
            }
            guard wanted else { continue }
            let baseAmount: Int64 = row[5]
            for target in targets { try sums.add(sign * baseAmount, slot: target, column: column) }
            if byCurrency {
                let currency: String = row[3], amount: Int64 = row[4]
                for target in targets { try sums.add(sign * amount, slot: target, currency: currency) }
            }
            uncounted += row[6] as Int
        }
        let present = sums.ids
        var order = tree.ordered(Set(present.filter { $0 > 0 }))
        if request.kind != .income && present.contains(uncategorizedExpense) { order.append(uncategorizedExpense) }
        if request.kind != .expense && present.contains(uncategorizedIncome) { order.append(uncategorizedIncome) }
        // Expense categories first, then income, keeping tree order within each.
        order = order.filter { kindOf($0, tree) == .expense } + order.filter { kindOf($0, tree) == .income }
        let format = { (minor: Int64) in base.map { InputRules.format(minor, $0) } ?? String(minor) }
        let categories = try order.map { id -> CategoryReportRow in
            let slot = sums.slot(of: id)
            let cells = sums.months(of: slot)
            let node = tree.nodes[id]
            return CategoryReportRow(
                categoryId: id > 0 ? id : nil, parentId: node?.parentId, path: id > 0 ? tree.path(id) : "uncategorized",
                kind: kindOf(id, tree), depth: id > 0 ? tree.chain(id).count - 1 : 0,
                months: cells.map(format), total: format(try CheckedMinorUnits.sum(cells)),
                byCurrency: byCurrency
                    ? sums.currencies(of: slot).sorted { $0.key < $1.key }.map { CurrencyAmount(currency: $0.key, amount: InputRules.format($0.value, $0.key)) }
                    : nil)
        }
        return CategoryReport(baseCurrency: base, months: range.months, categories: categories, uncounted: uncounted)
    }

    static func cashFlow(_ request: CashFlowReportRequest, _ db: Database) throws -> CashFlowReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let range = try ReportRange(db, from: request.from, to: request.to)
        let tree = try CategoryTree(db)
        var income = Array(repeating: Int64(0), count: range.months.count)
        var expenses = income
        var uncounted = 0
        if let first = range.first, let last = range.last {
            let index = Dictionary(uniqueKeysWithValues: range.months.enumerated().map { ($1, $0) })
            // The rows as kept, not grouped by SQLite: a GROUP BY spent most of the report in
            // SQLite's aggregate bookkeeping (a context allocated and freed per group) for sums
            // that are as cheap to add here (D229).
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT month, category_id, kind, base_minor, missing_base
                    FROM category_totals WHERE month BETWEEN ? AND ?
                    """),
                arguments: [first, last])
            // In key order: the month's column is looked up when the month changes, a category's
            // kind when the category does (D229).
            var monthText = "", month = 0
            var categoryId: Int64 = .min, known = false, expense = true
            while let row = try rows.next() {
                let rowMonth: String = row[0]
                if rowMonth != monthText {
                    monthText = rowMonth
                    month = index[rowMonth]!
                }
                let rowCategory: Int64 = row[1]
                // A category not in the tree (0: none) takes the transaction's kind, row by row.
                if rowCategory != categoryId || !known {
                    categoryId = rowCategory
                    known = tree.nodes[categoryId] != nil
                    // By the category's kind: a refund (income in an expense category) lowers expenses.
                    expense = categoryKind(categoryId, transactionKind: row[2], tree: tree) == .expense
                }
                let amount: Int64 = row[3]
                if expense {
                    expenses[month] = try CheckedMinorUnits.subtract(expenses[month], amount)
                } else {
                    income[month] = try CheckedMinorUnits.add(income[month], amount)
                }
                uncounted += row[4] as Int
            }
        }
        let format = { (minor: Int64) in base.map { InputRules.format(minor, $0) } ?? String(minor) }
        func line(_ month: String, _ income: Int64, _ expenses: Int64) throws -> CashFlowMonth {
            let net = try CheckedMinorUnits.subtract(income, expenses)
            return CashFlowMonth(month: month, income: format(income), expenses: format(expenses), net: format(net),
                                 savingsRate: income > 0 ? Percentage.oneDecimal(net, of: income) : nil)
        }
        let months = try range.months.indices.map { try line(range.months[$0], income[$0], expenses[$0]) }
        let total = try line("total", CheckedMinorUnits.sum(income), CheckedMinorUnits.sum(expenses))
        return CashFlowReport(baseCurrency: base, months: months, total: total, uncounted: uncounted)
    }

    /// A category's kind; for no category (0), the transaction's.
    private static func categoryKind(_ categoryId: Int64, transactionKind: String, tree: CategoryTree) -> CategoryKind {
        if let node = tree.nodes[categoryId] { return node.kind }
        return transactionKind == TransactionKind.income.rawValue ? .income : .expense
    }

    private static func kindOf(_ id: Int64, _ tree: CategoryTree) -> CategoryKind {
        switch id {
        case uncategorizedExpense: .expense
        case uncategorizedIncome: .income
        default: tree.nodes[id]?.kind ?? .expense
        }
    }
}
