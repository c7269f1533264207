import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Budgets, one per category: the global id is the category's (`budget:<category gid>`), so
/// budgets two devices set for one category while apart are one budget, merged field by field.
/// The limit history travels whole (a device's newer history wins).
enum BudgetSync: SyncedThing {
    static let entity = "budget"

    private struct Fields: Codable {
        var category: String
        var limits: [BudgetLimit]
        var thresholds: [Int]
        var carryOver: Bool
        var startMonth: String
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "budgets", db, after: after, limit: limit)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let categoryId = try BudgetRow.categoryId(db, id: id) else { return nil }
        return "budget:\(try identities.gid(CategorySync.self, localId: categoryId))"
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let budget = try BudgetRow.fetchOne(db, key: id) else { return nil }
        return try SyncFields.object(Fields(
            category: try identities.gid(CategorySync.self, localId: budget.categoryId), limits: try BudgetLimitRow.history(db, budgetId: id),
            thresholds: budget.thresholdList, carryOver: budget.carryOver, startMonth: budget.startMonth, createdAt: budget.createdAt, updatedAt: budget.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let categoryId = try identities.localId(CategorySync.self, gid: fields.category, field: "category")
        guard !fields.limits.isEmpty else { throw LedgerError.invalid("a synced budget has no limit", field: field) }
        let limits = try fields.limits.map { limit in
            let currency = try InputRules.currency(limit.currency, field: field)
            return BudgetLimitRow(
                budgetId: 0, fromMonth: try BudgetHandlers.month(limit.fromMonth, field: field),
                limitMinor: try InputRules.positiveAmount(limit.limit, currency: currency, field: field).minorUnits, currency: currency.code)
        }
        var row = try BudgetRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: "budgets", db)), categoryId: categoryId, limitMinor: limits[0].limitMinor, currency: limits[0].currency,
            thresholds: try BudgetHandlers.validThresholds(fields.thresholds), carryOver: fields.carryOver,
            startMonth: try BudgetHandlers.month(fields.startMonth, field: field), createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        try db.execute(cached: "DELETE FROM budget_limits WHERE budget_id = ?", arguments: [id])
        for var limit in limits {
            limit.budgetId = id
            try limit.save(db)
        }
        let saved = try BudgetHandlers.fetch(db, id: id, field: field, currentMonth: String(Timestamp.today(at: context.date).prefix(7)))
        try context.record(localId == nil ? .budgetCreated : .budgetUpdated, id: String(id), data: saved)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try BudgetHandlers.delete(BudgetDeleteRequest(id: localId), &context)
        return nil
    }
}
