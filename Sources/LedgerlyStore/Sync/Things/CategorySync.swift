import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Categories, the parent named by global id. Categories are never deleted.
enum CategorySync: SyncedThing {
    static let entity = "category"

    private struct Fields: Codable {
        var name: String
        var kind: String
        var parent: String?
        var icon: String?
        var color: String?
        var budgetingEnabled: Bool
        var sortOrder: Int
        var createdAt: String
        var updatedAt: String
    }

    /// Parents before children (a first upload must name a parent the receiver already has).
    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        let ordered = try CategoryRow.idsParentsFirst(db)
        // The position is an index in that order, not an id: categories are few.
        let ids = Array(ordered.dropFirst(Int(after)).prefix(limit))
        return (ids, after + Int64(ids.count))
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let category = try CategoryRow.fetchOne(db, key: id) else { return nil }
        return try SyncFields.object(Fields(
            name: category.name, kind: category.kind, parent: try category.parentId.map { try identities.gid(self, localId: $0) },
            icon: category.icon, color: category.color, budgetingEnabled: category.budgetingEnabled, sortOrder: category.sortOrder,
            createdAt: category.createdAt, updatedAt: category.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        guard CategoryKind(rawValue: fields.kind) != nil else { throw LedgerError.invalid("a synced category has kind '\(fields.kind)'", field: field) }
        let parentId = try fields.parent.map { try identities.localId(self, gid: $0, field: "parent") }
        if let parentId {
            let parent = try CategoryRow.find(db, id: parentId, field: field)
            guard parent.kind.rawValue == fields.kind else {
                throw LedgerError.invalid("a synced \(fields.kind) category cannot sit under the \(parent.kind.rawValue) category '\(parent.path)'", field: field)
            }
            // Two devices moving two categories under each other while apart would make a cycle.
            var cursor: Int64? = parentId
            while let current = cursor {
                if current == localId { throw LedgerError.invalid("a synced move would put a category under itself", field: field) }
                cursor = try CategoryRow.parentId(db, id: current)
            }
        }
        var name = try InputRules.name(fields.name, field: field)
        guard !name.contains("/") else { throw LedgerError.invalid("a synced category name contains '/'", field: field) }
        name = try SyncNames.settle(name, of: (self, gid, localId), among: .categories(parentId: parentId), identities: identities, &context)
        let newId = localId == nil ? try SyncNames.freeId(idHint, table: "categories", db) : localId
        var row = CategoryRow(
            id: newId, name: name, kind: fields.kind, parentId: parentId,
            icon: fields.icon, color: try InputRules.color(fields.color, field: field), budgetingEnabled: fields.budgetingEnabled,
            sortOrder: fields.sortOrder, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if let localId {
            // nil for a top-level category (NULL reads as no value).
            let oldParentId = try CategoryRow.parentId(db, id: localId)
            try row.update(db)
            // A move changes which subtrees the category's split parts count in.
            if oldParentId != parentId { try SplitSubtreeCounts.rebuild(db) }
        } else {
            try row.insert(db)
        }
        let id = row.id ?? db.lastInsertedRowID
        try context.record(localId == nil ? .categoryCreated : .categoryUpdated, id: String(id), data: try CategoryRow.find(db, id: id, field: field))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "category \(localId) was deleted on another device, but categories are not deleted here: it stays"
    }
}
