import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `category.create`, `category.list`, `category.update`.
enum CategoryHandlers {
    /// Every category with its path, parents before children, siblings in sort order.
    static func all(_ db: Database, kind: CategoryKind? = nil) throws -> [CategoryRecord] {
        let rows = try db.cachedRows(sql: """
            WITH RECURSIVE tree(id, path, sort_key) AS (
                SELECT id, name, printf('%08d/%s', sort_order + 50000000, lower(name)) FROM categories WHERE parent_id IS NULL
                UNION ALL
                SELECT c.id, tree.path || '/' || c.name, tree.sort_key || '|' || printf('%08d/%s', c.sort_order + 50000000, lower(c.name))
                FROM categories c JOIN tree ON c.parent_id = tree.id
            )
            SELECT c.*, tree.path FROM categories c JOIN tree ON tree.id = c.id
            \(kind == nil ? "" : "WHERE c.kind = ?")
            ORDER BY c.kind DESC, tree.sort_key
            """, arguments: kind.map { [$0.rawValue] } ?? [])
        return rows.map(record)
    }

    static func fetch(_ db: Database, id: Int64, field: FieldPath) throws -> CategoryRecord {
        guard let found = try all(db).first(where: { $0.id == id }) else {
            throw LedgerError.notFound("there is no category \(id)", field: field)
        }
        return found
    }

    /// Checks that a category exists, cheaply (transactions reference categories on every write).
    static func requireExists(_ db: Database, id: Int64, field: FieldPath) throws {
        guard try db.cachedValue(Bool.self, sql: "SELECT 1 FROM categories WHERE id = ?", arguments: [id]) == true else {
            throw LedgerError.notFound("there is no category \(id)", field: field)
        }
    }

    static func create(_ request: CategoryCreateRequest, _ context: inout WriteContext) throws -> CategoryRecord {
        let db = context.db
        let name = try validName(request.name)
        var kind = request.kind
        if let parentId = request.parentId {
            let parent = try fetch(db, id: parentId, field: .body("parentId"))
            if let kind, kind != parent.kind {
                throw LedgerError.invalid("a \(kind.rawValue) category cannot sit under the \(parent.kind.rawValue) category '\(parent.path)'", field: .body("kind"))
            }
            kind = parent.kind
        }
        guard let kind else {
            throw LedgerError.invalid("body.kind is required for a top-level category (income or expense)", field: .body("kind"))
        }
        try ensureNameFree(db, name: name, parentId: request.parentId, except: nil)
        try db.execute(cached: "INSERT INTO categories (name, kind, parent_id, icon, color, budgeting_enabled, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [name, kind.rawValue, request.parentId, try InputRules.optionalText(request.icon, field: .body("icon"), limit: 32),
                        try InputRules.color(request.color, field: .body("color")), request.budgetingEnabled ?? (kind == .expense),
                        try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) ?? 0, context.now, context.now])
        let created = try fetch(db, id: db.lastInsertedRowID, field: .body("id"))
        try context.record(.categoryCreated, id: String(created.id), data: created)
        return created
    }

    static func list(_ request: CategoryListRequest, _ db: Database) throws -> CategoryListReply {
        CategoryListReply(categories: try all(db, kind: request.kind))
    }

    static func update(_ request: CategoryUpdateRequest, _ context: inout WriteContext) throws -> CategoryRecord {
        let db = context.db
        let category = try fetch(db, id: request.id, field: .body("id"))
        var parentId = category.parentId
        if request.makeTopLevel == true {
            guard request.parentId == nil else {
                throw LedgerError.invalid("give either body.parentId or body.makeTopLevel, not both", field: .body("makeTopLevel"))
            }
            parentId = nil
        }
        if let newParent = request.parentId {
            let parent = try fetch(db, id: newParent, field: .body("parentId"))
            guard parent.kind == category.kind else {
                throw LedgerError.invalid("'\(category.path)' is an \(category.kind.rawValue) category and cannot move under the \(parent.kind.rawValue) category '\(parent.path)'", field: .body("parentId"))
            }
            // Walk up from the new parent: reaching the category itself would make a cycle.
            var cursor: Int64? = newParent
            while let current = cursor {
                if current == category.id {
                    throw LedgerError.invalid("'\(category.path)' cannot move under itself or one of its children", field: .body("parentId"))
                }
                cursor = try db.cachedValue(Int64.self, sql: "SELECT parent_id FROM categories WHERE id = ?", arguments: [current])
            }
            parentId = newParent
        }
        let name = try request.name.map(validName) ?? category.name
        try ensureNameFree(db, name: name, parentId: parentId, except: category.id)
        // Budgeting off means the category has no budget (D77): turning it off while one exists
        // would leave a budget that raises alerts for a category the user said not to budget.
        if request.budgetingEnabled == false, category.budgetingEnabled,
           let budgetId = try db.cachedValue(Int64.self, sql: "SELECT id FROM budgets WHERE category_id = ?", arguments: [category.id]) {
            throw LedgerError.conflict("'\(category.path)' has budget \(budgetId): delete it first (`ledgerly budget delete`) to turn budgeting off", field: .body("budgetingEnabled"))
        }
        try db.execute(cached: "UPDATE categories SET name = ?, parent_id = ?, icon = ?, color = ?, budgeting_enabled = ?, sort_order = ?, updated_at = ? WHERE id = ?",
            arguments: [name, parentId,
                        try request.icon.map { try InputRules.optionalText($0, field: .body("icon"), limit: 32) } ?? category.icon,
                        try request.color.map { try InputRules.color($0, field: .body("color")) } ?? category.color,
                        request.budgetingEnabled ?? category.budgetingEnabled, try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) ?? category.sortOrder, context.now, category.id])
        let updated = try fetch(db, id: category.id, field: .body("id"))
        try context.record(.categoryUpdated, id: String(updated.id), data: updated)
        return updated
    }

    private static func record(_ row: Row) -> CategoryRecord {
        CategoryRecord(
            id: row["id"], name: row["name"], kind: CategoryKind(rawValue: row["kind"]) ?? .expense,
            parentId: row["parent_id"], path: row["path"], icon: row["icon"], color: row["color"],
            budgetingEnabled: row["budgeting_enabled"], sortOrder: row["sort_order"])
    }

    private static func validName(_ raw: String) throws -> String {
        let name = try InputRules.name(raw, field: .body("name"))
        guard !name.contains("/") else {
            throw LedgerError.invalid("body.name must not contain '/', which separates levels in category paths", field: .body("name"))
        }
        return name
    }

    private static func ensureNameFree(_ db: Database, name: String, parentId: Int64?, except id: Int64?) throws {
        if let existing = try db.cachedValue(Int64.self, sql: "SELECT id FROM categories WHERE ifnull(parent_id, 0) = ? AND name = ? COLLATE NOCASE", arguments: [parentId ?? 0, name]), existing != id {
            throw LedgerError.conflict("a category named '\(name)' already exists at that level (id \(existing))", field: .body("name"))
        }
    }
}
