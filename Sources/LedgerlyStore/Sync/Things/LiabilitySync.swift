import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Liabilities (a mortgage, a card): every field of the liability. Its history (balances set,
/// payments) is things of their own (`LiabilityEntrySync`), since entries two devices added apart
/// must both be kept. Liabilities are archived, never deleted; two made apart with one name are
/// both kept, one renamed.
enum LiabilitySync: SyncedThing {
    static let entity = "liability"

    private struct Fields: Codable {
        var name: String
        var liabilityType: LiabilityType
        var currency: String
        var interestRate: String?
        var dueDate: String?
        var notes: String?
        var archived: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: LiabilityRow.databaseTableName, db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let liability = try LiabilityRow.fetchOne(db, key: id) else { return nil }
        return try SyncFields.object(Fields(
            name: liability.name, liabilityType: LiabilityType(rawValue: liability.liabilityType) ?? .other, currency: liability.currency,
            interestRate: liability.interestRate, dueDate: liability.dueDate, notes: liability.notes, archived: liability.archived,
            createdAt: liability.createdAt, updatedAt: liability.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let currency = try InputRules.currency(fields.currency, field: field)
        if let localId, try LiabilityRow.find(db, id: localId, field: field).currency != currency.code {
            throw LedgerError.invalid("a synced liability cannot change currency", field: field)
        }
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .liabilities, identities: identities, &context)
        var row = try LiabilityRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: LiabilityRow.databaseTableName, db)), name: name, liabilityType: fields.liabilityType.rawValue, currency: currency.code,
            interestRate: try LiabilityHandlers.interestRate(fields.interestRate), dueDate: try LiabilityHandlers.dueDate(fields.dueDate),
            notes: try InputRules.optionalText(fields.notes, field: field), archived: fields.archived, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        try context.record(localId == nil ? .liabilityCreated : .liabilityUpdated, id: String(id), data: try row.record(db, withHistory: true))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "liability \(localId) was deleted on another device, but liabilities are archived, not deleted: it stays here"
    }
}
