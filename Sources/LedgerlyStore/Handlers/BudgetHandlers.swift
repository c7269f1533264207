import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `budget.set`, `budget.list`, `budget.delete` (`budget.status` is `BudgetEvaluator`).
enum BudgetHandlers {
    static let defaultThresholds = [50, 80, 100]

    static func record(_ row: Row) -> BudgetRecord {
        let thresholds = (try? JSONDecoder().decode([Int].self, from: Data((row["thresholds"] as String).utf8))) ?? defaultThresholds
        return BudgetRecord(
            id: row["id"], categoryId: row["category_id"], categoryName: row["category_name"],
            limit: InputRules.format(row["limit_minor"], row["currency"]), currency: row["currency"],
            thresholds: thresholds, carryOver: row["carry_over"], startMonth: row["start_month"],
            createdAt: row["created_at"], updatedAt: row["updated_at"])
    }

    static let selectSQL = "SELECT b.*, c.name AS category_name FROM budgets b JOIN categories c ON c.id = b.category_id"

    static func fetch(_ db: Database, id: Int64, field: String) throws -> BudgetRecord {
        guard let row = try db.cachedRow(sql: "\(selectSQL) WHERE b.id = ?", arguments: [id]) else {
            throw ErrorBody.notFound("there is no budget \(id); see `ledgerly budget list`", field: field)
        }
        return record(row)
    }

    static func set(_ request: BudgetSetRequest, _ context: inout WriteContext) throws -> BudgetRecord {
        let db = context.db
        let category = try CategoryHandlers.fetch(db, id: request.categoryId, field: "body.categoryId")
        guard category.kind == .expense else {
            throw ErrorBody.validation("'\(category.path)' is an income category: budgets limit spending, so they are for expense categories", field: "body.categoryId")
        }
        let base = try SettingsHandlers.baseCurrency(db)
        let existing = try db.cachedRow(sql: "\(selectSQL) WHERE b.category_id = ?", arguments: [category.id]).map(record)
        // A changed budget keeps its currency unless another is given.
        guard let code = request.currency ?? existing?.currency ?? base else {
            throw ErrorBody.validation("body.currency is required until a base currency is set", field: "body.currency")
        }
        let currency = try InputRules.currency(code, field: "body.currency")
        let limit = try InputRules.positiveAmount(request.limit, currency: currency, field: "body.limit")
        let thresholds = try validThresholds(request.thresholds ?? existing?.thresholds ?? defaultThresholds)
        let startMonth = try request.startMonth.map { try month($0, field: "body.startMonth") } ?? existing?.startMonth ?? String(Timestamp.today(at: context.date).prefix(7))
        let carryOver = request.carryOver ?? existing?.carryOver ?? false
        let thresholdsJSON = String(decoding: try JSONEncoder().encode(thresholds), as: UTF8.self)
        if let existing {
            try db.execute(
                cached: "UPDATE budgets SET limit_minor = ?, currency = ?, thresholds = ?, carry_over = ?, start_month = ?, updated_at = ? WHERE id = ?",
                arguments: [limit.minorUnits, currency.code, thresholdsJSON, carryOver, startMonth, context.now, existing.id])
            let updated = try fetch(db, id: existing.id, field: "body.categoryId")
            try context.record(.budgetUpdated, id: String(updated.id), data: updated)
            return updated
        }
        try db.execute(
            cached: "INSERT INTO budgets (category_id, limit_minor, currency, thresholds, carry_over, start_month, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [category.id, limit.minorUnits, currency.code, thresholdsJSON, carryOver, startMonth, context.now, context.now])
        let created = try fetch(db, id: db.lastInsertedRowID, field: "body.categoryId")
        try context.record(.budgetCreated, id: String(created.id), data: created)
        return created
    }

    static func list(_ request: BudgetListRequest, _ db: Database) throws -> BudgetListReply {
        BudgetListReply(budgets: try db.cachedRows(sql: "\(selectSQL) ORDER BY c.name COLLATE NOCASE").map(record))
    }

    static func delete(_ request: BudgetDeleteRequest, _ context: inout WriteContext) throws -> BudgetRecord {
        let budget = try fetch(context.db, id: request.id, field: "body.id")
        try context.db.execute(cached: "DELETE FROM budgets WHERE id = ?", arguments: [budget.id])
        try context.record(.budgetDeleted, id: String(budget.id), data: budget)
        return budget
    }

    /// Percentages from 1 to 1000, each once, kept in ascending order (alerts are raised in it).
    static func validThresholds(_ values: [Int]) throws(ErrorBody) -> [Int] {
        guard values.count <= 10 else { throw .validation("at most 10 thresholds, got \(values.count)", field: "body.thresholds") }
        for value in values where !(1...1_000).contains(value) {
            throw .validation("body.thresholds: \(value) is not a percentage from 1 to 1000", field: "body.thresholds")
        }
        guard Set(values).count == values.count else { throw .validation("body.thresholds lists a percentage twice", field: "body.thresholds") }
        return values.sorted()
    }

    /// "YYYY-MM", a real month.
    static func month(_ text: String, field: String) throws(ErrorBody) -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 7, parts.count == 2, parts[0].count == 4, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }), let year = Int(parts[0]), let month = Int(parts[1]),
              (1970...9999).contains(year), (1...12).contains(month), parts[1].count == 2
        else { throw .validation("\(field) must be a month as YYYY-MM, got \(InputEcho.quoted(text))", field: field) }
        return text
    }
}
