import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `category.create`, `category.list`, `category.get`, `category.update`: the rules; `CategoryRow` reads and
/// writes the table.
enum CategoryHandlers {
    static func create(_ request: CategoryCreateRequest, _ context: inout WriteContext) throws -> CategoryRecord {
        let db = context.db
        let name = try validName(request.name)
        var kind = request.kind
        if let parentId = request.parentId {
            let parent = try CategoryRow.find(db, id: parentId, field: .body("parentId"))
            if let kind, kind != parent.kind {
                throw LedgerError.invalid("a \(kind.rawValue) category cannot sit under the \(parent.kind.rawValue) category '\(parent.path)'", field: .body("kind"))
            }
            kind = parent.kind
        }
        guard let kind else {
            throw LedgerError.invalid("body.kind is required for a top-level category (income or expense)", field: .body("kind"))
        }
        try ensureNameFree(db, name: name, parentId: request.parentId, except: nil)
        var row = CategoryRow(
            name: name, kind: kind.rawValue, parentId: request.parentId, icon: try InputRules.optionalText(request.icon, field: .body("icon"), limit: 32),
            color: try InputRules.color(request.color, field: .body("color")), budgetingEnabled: request.budgetingEnabled ?? (kind == .expense),
            sortOrder: try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) ?? 0, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        let created = try CategoryRow.find(db, id: row.id ?? 0, field: .body("id"))
        try context.record(.categoryCreated, id: String(created.id), data: created)
        return created
    }

    static func list(_ request: CategoryListRequest, _ db: Database) throws -> CategoryListReply {
        CategoryListReply(categories: try CategoryRow.tree(db, kind: request.kind))
    }

    static func get(_ request: CategoryGetRequest, _ db: Database) throws -> CategoryRecord {
        try CategoryRow.find(db, id: try InputRules.positiveId(request.id, field: .body("id")), field: .body("id"))
    }

    static func update(_ request: CategoryUpdateRequest, _ context: inout WriteContext) throws -> CategoryRecord {
        let db = context.db
        let category = try CategoryRow.find(db, id: request.id, field: .body("id"))
        var parentId = category.parentId
        if request.makeTopLevel == true {
            guard request.parentId == nil else {
                throw LedgerError.invalid("give either body.parentId or body.makeTopLevel, not both", field: .body("makeTopLevel"))
            }
            parentId = nil
        }
        if let newParent = request.parentId {
            let parent = try CategoryRow.find(db, id: newParent, field: .body("parentId"))
            guard parent.kind == category.kind else {
                throw LedgerError.invalid("'\(category.path)' is an \(category.kind.rawValue) category and cannot move under the \(parent.kind.rawValue) category '\(parent.path)'", field: .body("parentId"))
            }
            // Walk up from the new parent: reaching the category itself would make a cycle.
            var cursor: Int64? = newParent
            while let current = cursor {
                if current == category.id {
                    throw LedgerError.invalid("'\(category.path)' cannot move under itself or one of its children", field: .body("parentId"))
                }
                cursor = try CategoryRow.parentId(db, id: current)
            }
            parentId = newParent
        }
        let name = try request.name.map(validName) ?? category.name
        try ensureNameFree(db, name: name, parentId: parentId, except: category.id)
        // Budgeting off means the category has no budget (D77): turning it off while one exists
        // would leave a budget that raises alerts for a category the user said not to budget.
        if request.budgetingEnabled == false, category.budgetingEnabled,
           let budgetId = try BudgetRow.id(ofCategory: category.id, db) {
            throw LedgerError.conflict("'\(category.path)' has budget \(budgetId): delete it first (`ledgerly budget delete`) to turn budgeting off", field: .body("budgetingEnabled"))
        }
        guard var row = try CategoryRow.fetchOne(db, key: category.id) else { throw LedgerError.notFound("there is no category \(category.id)", field: .body("id")) }
        row.name = name
        row.parentId = parentId
        if let icon = request.icon { row.icon = try InputRules.optionalText(icon, field: .body("icon"), limit: 32) }
        if let color = request.color { row.color = try InputRules.color(color, field: .body("color")) }
        if let enabled = request.budgetingEnabled { row.budgetingEnabled = enabled }
        if let order = try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) { row.sortOrder = order }
        row.updatedAt = context.now
        try row.update(db)
        // A move changes which subtrees the category's split parts count in.
        if parentId != category.parentId { try SplitSubtreeCounts.rebuild(db) }
        let updated = try CategoryRow.find(db, id: category.id, field: .body("id"))
        try context.record(.categoryUpdated, id: String(updated.id), data: updated)
        return updated
    }

    private static func validName(_ raw: String) throws -> String {
        let name = try InputRules.name(raw, field: .body("name"))
        guard !name.contains("/") else {
            throw LedgerError.invalid("body.name must not contain '/', which separates levels in category paths", field: .body("name"))
        }
        return name
    }

    private static func ensureNameFree(_ db: Database, name: String, parentId: Int64?, except id: Int64?) throws {
        if let existing = try CategoryRow.id(named: name, parentId: parentId, db), existing != id {
            throw LedgerError.conflict("a category named '\(name)' already exists at that level (id \(existing))", field: .body("name"))
        }
    }
}
