import GRDB
import LedgerlyProtocol

/// `tag.create`, `tag.list`, and tag resolution for transactions: the rules; `TagRow` reads and
/// writes the table.
enum TagHandlers {
    static let maximumLength = 50

    static func create(_ request: TagCreateRequest, _ context: inout WriteContext) throws -> TagRecord {
        let name = try validName(request.name, field: .body("name"))
        if let existing = try TagRow.id(named: name, context.db) {
            throw LedgerError.conflict("the tag '\(name)' already exists (id \(existing))", field: .body("name"))
        }
        return try insert(name, &context)
    }

    static func list(_ request: TagListRequest, _ db: Database) throws -> TagListReply {
        TagListReply(tags: try TagRow.order(TagRow.Columns.name.collating(.nocase)).fetchAll(db).map(\.record))
    }

    /// Ids for tag names, creating the tags that do not exist yet (and logging their creation).
    static func resolve(_ names: [String], field: FieldPath, _ context: inout WriteContext) throws -> [Int64] {
        var ids: [Int64] = []
        for (index, raw) in names.enumerated() {
            let name = try validName(raw, field: field[index])
            let id = try TagRow.id(named: name, context.db) ?? insert(name, &context).id
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private static func insert(_ name: String, _ context: inout WriteContext) throws -> TagRecord {
        var row = TagRow(name: name)
        try row.insert(context.db)
        let tag = row.record
        try context.record(.tagCreated, id: String(tag.id), data: tag)
        return tag
    }

    private static func validName(_ raw: String, field: FieldPath) throws -> String {
        let name = try InputRules.name(raw, field: field)
        guard name.count <= maximumLength, !name.contains(",") else {
            throw LedgerError.invalid("\(field) must be at most \(maximumLength) characters without commas", field: field)
        }
        return name
    }
}
