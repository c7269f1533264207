import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `categories`: the one type that reads and writes the table, and the one place a
/// stored category becomes its wire record (`record(path:)`; the path comes from the tree).
/// Other features ask it for categories (`find`, `requireExists`, `tree`).
struct CategoryRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "categories"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let kind = Column("kind")
        static let parentId = Column("parent_id")
        static let icon = Column("icon")
        static let color = Column("color")
        static let budgetingEnabled = Column("budgeting_enabled")
        static let sortOrder = Column("sort_order")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var name: String
    /// `income` or `expense` (a CHECK constraint); an unknown text reads as `expense`.
    var kind: String
    var parentId: Int64?
    var icon: String?
    var color: String?
    var budgetingEnabled: Bool
    var sortOrder: Int
    var createdAt: String
    var updatedAt: String

    init(id: Int64? = nil, name: String, kind: String, parentId: Int64?, icon: String?, color: String?, budgetingEnabled: Bool, sortOrder: Int,
         createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.kind = kind
        self.parentId = parentId
        self.icon = icon
        self.color = color
        self.budgetingEnabled = budgetingEnabled
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Read explicitly rather than through `Decodable`: `category.list` and every lookup by id
    /// read the whole tree, and `Decodable` converted each column's snake-case name for every
    /// row, 38 % of the store's work for a `category.list` at a million transactions.
    init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        kind = row[Columns.kind]
        parentId = row[Columns.parentId]
        icon = row[Columns.icon]
        color = row[Columns.color]
        budgetingEnabled = row[Columns.budgetingEnabled]
        sortOrder = row[Columns.sortOrder]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func record(path: String) -> CategoryRecord {
        CategoryRecord(id: id ?? 0, name: name, kind: CategoryKind(rawValue: kind) ?? .expense, parentId: parentId, path: path,
                       icon: icon, color: color, budgetingEnabled: budgetingEnabled, sortOrder: sortOrder)
    }
}

extension CategoryRow {
    /// Every category with its path, parents before children, siblings in sort order.
    static func tree(_ db: Database, kind: CategoryKind? = nil) throws -> [CategoryRecord] {
        // Read through a cursor, each row while the statement is on it: a copied row looks a
        // column up by lowercasing every column name, the statement's row by a dictionary.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            WITH RECURSIVE tree(id, path, sort_key) AS (
                SELECT id, name, printf('%08d/%s', sort_order + 50000000, lower(name)) FROM categories WHERE parent_id IS NULL
                UNION ALL
                SELECT c.id, tree.path || '/' || c.name, tree.sort_key || '|' || printf('%08d/%s', c.sort_order + 50000000, lower(c.name))
                FROM categories c JOIN tree ON c.parent_id = tree.id
            )
            SELECT c.*, tree.path FROM categories c JOIN tree ON tree.id = c.id
            \(kind == nil ? "" : "WHERE c.kind = ?")
            ORDER BY c.kind DESC, tree.sort_key
            """), arguments: kind.map { [$0.rawValue] } ?? [])
        var records: [CategoryRecord] = []
        while let row = try rows.next() {
            records.append(try CategoryRow(row: row).record(path: row["path"]))
        }
        return records
    }

    /// Every category as a node of `CategoryTree` (a report's tree), in the table's order. Read
    /// through a cursor: its row finds a column by name in a dictionary, where a fetched (copied)
    /// row lowercases every column name for each look-up (as `tree`).
    static func eachNode(_ db: Database, _ body: (CategoryTree.Node) throws -> Void) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, name, kind, parent_id, sort_order FROM categories"))
        while let row = try rows.next() {
            try body(CategoryTree.Node(id: row["id"], name: row["name"], kind: CategoryKind(rawValue: row["kind"]) ?? .expense,
                                       parentId: row["parent_id"], sortOrder: row["sort_order"]))
        }
    }

    /// The category with this id, with its path; refused as not found, naming `field`.
    static func find(_ db: Database, id: Int64, field: FieldPath) throws -> CategoryRecord {
        guard let found = try tree(db).first(where: { $0.id == id }) else {
            throw LedgerError.notFound("there is no category \(id)", field: field)
        }
        return found
    }

    /// The category's parent; nil for a top-level category (NULL reads as no value) or none.
    static func parentId(_ db: Database, id: Int64) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT parent_id FROM categories WHERE id = ?", arguments: [id])
    }

    /// The category named `name` (regardless of case) under `parentId` (nil: at the top), if any.
    static func id(named name: String, parentId: Int64?, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM categories WHERE ifnull(parent_id, 0) = ? AND name = ? COLLATE NOCASE", arguments: [parentId ?? 0, name])
    }

    /// The category's id and its ancestors' ids, nearest first (empty when there is no such category).
    static func selfAndAncestors(_ db: Database, id: Int64) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: """
            WITH RECURSIVE up(id, parent) AS (SELECT id, parent_id FROM categories WHERE id = ?
              UNION ALL SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent)
            SELECT id FROM up
            """), arguments: [id])
    }

    /// Every category's id, parents before children (by depth, then id).
    static func idsParentsFirst(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            WITH RECURSIVE tree(id, depth) AS (
                SELECT id, 0 FROM categories WHERE parent_id IS NULL
                UNION ALL
                SELECT c.id, tree.depth + 1 FROM categories c JOIN tree ON c.parent_id = tree.id
            )
            SELECT id FROM tree ORDER BY depth, id
            """)
    }

    /// Checks that a category exists, cheaply (transactions reference categories on every write).
    static func requireExists(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws {
        guard try db.cachedValue(Bool.self, sql: "SELECT 1 FROM categories WHERE id = ?", arguments: [id]) == true else {
            throw LedgerError.notFound("there is no category \(id)", field: field())
        }
    }
}
