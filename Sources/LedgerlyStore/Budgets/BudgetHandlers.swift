import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `budget.set`, `budget.list`, `budget.delete` (`budget.status` is `BudgetEvaluator`): the rules;
/// `BudgetRow` and `BudgetLimitRow` read and write the tables.
enum BudgetHandlers {
    static let defaultThresholds = BudgetRow.defaultThresholds

    /// A budget with its category's name (`BudgetRow.withCategoryName`) as its wire record.
    static func record(_ db: Database, _ named: BudgetRow.Named, currentMonth: String) throws -> BudgetRecord {
        named.budget.record(categoryName: named.categoryName, limits: try BudgetLimitRow.history(db, budgetId: named.budget.id ?? 0), currentMonth: currentMonth)
    }

    /// The limit in force in `month`: the newest whose first month is not after it.
    static func limit(in month: String, of budget: BudgetRecord) -> BudgetLimit {
        let limits = budget.limits ?? [BudgetLimit(fromMonth: budget.startMonth, limit: budget.limit, currency: budget.currency)]
        return limits.last { $0.fromMonth <= month } ?? limits[0]
    }

    static func fetch(_ db: Database, id: Int64, field: FieldPath, currentMonth: String) throws -> BudgetRecord {
        guard let row = try BudgetRow.withCategoryName(db, id: id) else {
            throw LedgerError.notFound("there is no budget \(id); see `ledgerly budget list`", field: field)
        }
        return try record(db, row, currentMonth: currentMonth)
    }

    /// Creates the category's budget, or adds a limit to its history from a month on: months
    /// before it keep the limit they had, so no month is judged again with a limit that was not
    /// in force then (D82). Thresholds and carry-over apply to the whole budget.
    static func set(_ request: BudgetSetRequest, _ context: inout WriteContext) throws -> BudgetRecord {
        let db = context.db
        let currentMonth = String(Timestamp.today(at: context.date).prefix(7))
        let category = try CategoryRow.find(db, id: request.categoryId, field: .body("categoryId"))
        guard category.kind == .expense else {
            throw LedgerError.invalid("'\(category.path)' is an income category: budgets limit spending, so they are for expense categories", field: .body("categoryId"))
        }
        guard category.budgetingEnabled else {
            throw LedgerError.invalid("'\(category.path)' has budgeting turned off: turn it on first (`ledgerly category edit … --budgeting on`)", field: .body("categoryId"))
        }
        let base = try SettingsHandlers.baseCurrency(db)
        let existing = try BudgetRow.withCategoryName(db, categoryId: category.id).map { try record(db, $0, currentMonth: currentMonth) }
        let from = try request.startMonth.map { try month($0, field: .body("startMonth")) } ?? currentMonth
        // A changed limit keeps the currency in force at its month unless another is given.
        guard let code = request.currency ?? existing.map({ limit(in: from, of: $0).currency }) ?? base else {
            throw LedgerError.invalid("body.currency is required until a base currency is set", field: .body("currency"))
        }
        let currency = try InputRules.currency(code, field: .body("currency"))
        let amount = try InputRules.positiveAmount(request.limit, currency: currency, field: .body("limit"))
        let thresholds = try validThresholds(request.thresholds ?? existing?.thresholds ?? defaultThresholds)
        let carryOver = request.carryOver ?? existing?.carryOver ?? false
        var row: BudgetRow
        if let existing, let stored = try BudgetRow.fetchOne(db, key: existing.id) {
            row = stored
            row.thresholds = String(decoding: try JSONEncoder().encode(thresholds), as: UTF8.self)
            row.carryOver = carryOver
            row.startMonth = min(row.startMonth, from)
            row.updatedAt = context.now
            try row.update(db)
        } else {
            row = try BudgetRow(categoryId: category.id, limitMinor: amount.minorUnits, currency: currency.code, thresholds: thresholds,
                                carryOver: carryOver, startMonth: from, createdAt: context.now, updatedAt: context.now)
            try row.insert(db)
        }
        let budgetId = row.id ?? 0
        // A limit from a month that already has one replaces it (the primary key is the pair).
        try BudgetLimitRow(budgetId: budgetId, fromMonth: from, limitMinor: amount.minorUnits, currency: currency.code).save(db)
        let saved = try fetch(db, id: budgetId, field: .body("categoryId"), currentMonth: currentMonth)
        try context.record(existing == nil ? .budgetCreated : .budgetUpdated, id: String(saved.id), data: saved)
        return saved
    }

    static func list(_ request: BudgetListRequest, _ context: ReadContext) throws -> BudgetListReply {
        let db = context.db, now = context.date
        let currentMonth = String(Timestamp.today(at: now).prefix(7))
        return BudgetListReply(budgets: try BudgetRow.allWithCategoryName(db).map { try record(db, $0, currentMonth: currentMonth) })
    }

    static func delete(_ request: BudgetDeleteRequest, _ context: inout WriteContext) throws -> BudgetRecord {
        let budget = try fetch(context.db, id: request.id, field: .body("id"), currentMonth: String(Timestamp.today(at: context.date).prefix(7)))
        _ = try BudgetRow.deleteOne(context.db, key: budget.id)
        try context.record(.budgetDeleted, id: String(budget.id), data: budget)
        return budget
    }

    /// Percentages from 1 to 1000, each once, kept in ascending order (alerts are raised in it).
    static func validThresholds(_ values: [Int]) throws(LedgerError) -> [Int] {
        guard values.count <= 10 else { throw .invalid("at most 10 thresholds, got \(values.count)", field: .body("thresholds")) }
        for value in values where !(1...1_000).contains(value) {
            throw .invalid("body.thresholds: \(value) is not a percentage from 1 to 1000", field: .body("thresholds"))
        }
        guard Set(values).count == values.count else { throw .invalid("body.thresholds lists a percentage twice", field: .body("thresholds")) }
        return values.sorted()
    }

    /// "YYYY-MM", a real month.
    static func month(_ text: String, field: FieldPath) throws(LedgerError) -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 7, parts.count == 2, parts[0].count == 4, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }), let year = Int(parts[0]), let month = Int(parts[1]),
              (1970...9999).contains(year), (1...12).contains(month), parts[1].count == 2
        else { throw .invalid("\(field) must be a month as YYYY-MM, got \(InputEcho.quoted(text))", field: field) }
        return text
    }
}
