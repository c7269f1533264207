import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Recurring templates, their wallet and category named by global id. Which occurrence comes
/// next is a field like the others (the last device to post wins); an occurrence both devices
/// posted while apart is one transaction, since both give it the same global id
/// (`SyncOccurrence`), and a device whose next occurrence already arrived from another passes
/// over it instead of posting it again.
enum RecurringSync: SyncedThing {
    static let entity = "recurring"

    private struct Fields: Codable {
        var name: String
        var kind: TransactionKind
        var wallet: String
        var amount: String
        var currency: String?
        var category: String?
        var notes: String?
        var tags: [String]?
        var frequency: RecurrenceFrequency
        var every: Int
        var startDate: String
        var endDate: String?
        var nextIndex: Int
        var mode: RecurrenceMode
        var paused: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "recurring", db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let row = try RecurringRow.fetchOne(db, key: id) else { return nil }
        let record = row.record
        let template = record.template
        return try SyncFields.object(Fields(
            name: record.name, kind: template.kind, wallet: try identities.gid(WalletSync.self, localId: template.walletId), amount: template.amount,
            currency: template.currency, category: try template.categoryId.map { try identities.gid(CategorySync.self, localId: $0) },
            notes: template.notes, tags: template.tags, frequency: record.frequency, every: record.every, startDate: record.startDate,
            endDate: record.endDate, nextIndex: row.nextIndex, mode: record.mode, paused: record.paused, createdAt: record.createdAt, updatedAt: record.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let template = RecurringTemplate(
            kind: fields.kind, walletId: try identities.localId(WalletSync.self, gid: fields.wallet, field: "wallet"), amount: fields.amount,
            currency: fields.currency, categoryId: try fields.category.map { try identities.localId(CategorySync.self, gid: $0, field: "category") },
            notes: fields.notes, tags: fields.tags)
        guard (1...1_000).contains(fields.every), fields.nextIndex >= 0 else {
            throw LedgerError.invalid("a synced recurring transaction has every \(fields.every) and next occurrence \(fields.nextIndex)", field: field)
        }
        let start = try InputRules.date(fields.startDate, field: field)
        if let end = fields.endDate { _ = try InputRules.date(end, field: field) }
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .recurring, identities: identities, &context)
        var row = try RecurringRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: "recurring", db)), name: name, template: template, frequency: fields.frequency, every: fields.every,
            startDate: start.description, endDate: fields.endDate, nextIndex: fields.nextIndex, nextRun: nil, mode: fields.mode, paused: fields.paused,
            createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        row.nextRun = RecurringHandlers.occurrence(row.record, index: fields.nextIndex)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        let record = row.record
        try context.record(localId == nil ? .recurringCreated : .recurringUpdated, id: String(record.id), data: record)
        return record.id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try RecurringHandlers.delete(RecurringDeleteRequest(id: localId), &context)
        return nil
    }
}
