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

    private struct Cell {
        var base: [Int64]
        var currencies: [String: Int64] = [:]
    }

    static func report(_ request: CategoryReportRequest, _ db: Database) throws -> CategoryReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let range = try ReportRange(db, from: request.from, to: request.to)
        let tree = try CategoryTree(db)
        guard let first = range.first, let last = range.last else {
            return CategoryReport(baseCurrency: base, months: [], categories: [], uncounted: 0)
        }
        let index = Dictionary(uniqueKeysWithValues: range.months.enumerated().map { ($1, $0) })
        var cells: [Int64: Cell] = [:]
        var uncounted = 0
        // Columns are read by position and cells changed in place: by name, GRDB lowercases the
        // column name on every read, which was most of this report's time (D225).
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT month, category_id, kind, currency, amount_minor, base_minor, missing_base
                FROM category_totals WHERE month BETWEEN ? AND ?
                """),
            arguments: [first, last])
        var chains: [Int64: [Int64]] = [:]
        while let row = try rows.next() {
            let categoryId: Int64 = row[1]
            let kind = categoryKind(categoryId, transactionKind: row[2], tree: tree)
            if let wanted = request.kind, wanted != kind { continue }
            // Spending is shown positive: an expense category's effects are negative.
            let sign: Int64 = kind == .expense ? -1 : 1
            let targets: [Int64]
            if categoryId == 0 {
                targets = [kind == .expense ? uncategorizedExpense : uncategorizedIncome]
            } else if let known = chains[categoryId] {
                targets = known
            } else {
                targets = tree.chain(categoryId)
                chains[categoryId] = targets
            }
            let month = index[row[0] as String]!
            let currency: String = row[3]
            let amount: Int64 = row[4], baseAmount: Int64 = row[5]
            for target in targets {
                if cells[target] == nil { cells[target] = Cell(base: Array(repeating: 0, count: range.months.count)) }
                try cells[target]!.base[month] = CheckedMinorUnits.add(cells[target]!.base[month], sign * baseAmount)
                try cells[target]!.currencies[currency] = CheckedMinorUnits.add(cells[target]!.currencies[currency] ?? 0, sign * amount)
            }
            uncounted += row[6] as Int
        }
        var order = tree.ordered(Set(cells.keys.filter { $0 > 0 }))
        if request.kind != .income && cells[uncategorizedExpense] != nil { order.append(uncategorizedExpense) }
        if request.kind != .expense && cells[uncategorizedIncome] != nil { order.append(uncategorizedIncome) }
        // Expense categories first, then income, keeping tree order within each.
        order = order.filter { kindOf($0, tree) == .expense } + order.filter { kindOf($0, tree) == .income }
        let format = { (minor: Int64) in base.map { InputRules.format(minor, $0) } ?? String(minor) }
        let categories = try order.map { id -> CategoryReportRow in
            let cell = cells[id]!
            let node = tree.nodes[id]
            return CategoryReportRow(
                categoryId: id > 0 ? id : nil, parentId: node?.parentId, path: id > 0 ? tree.path(id) : "uncategorized",
                kind: kindOf(id, tree), depth: id > 0 ? tree.chain(id).count - 1 : 0,
                months: cell.base.map(format), total: format(try CheckedMinorUnits.sum(cell.base)),
                byCurrency: request.byCurrency == true
                    ? cell.currencies.sorted { $0.key < $1.key }.map { CurrencyAmount(currency: $0.key, amount: InputRules.format($0.value, $0.key)) }
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
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT month, category_id, kind, sum(base_minor), sum(missing_base)
                    FROM category_totals WHERE month BETWEEN ? AND ? GROUP BY month, category_id, kind
                    """),
                arguments: [first, last])
            while let row = try rows.next() {
                let month = index[row[0] as String]!
                let amount: Int64 = row[3]
                // By the category's kind: a refund (income in an expense category) lowers expenses.
                if categoryKind(row[1], transactionKind: row[2], tree: tree) == .expense {
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
