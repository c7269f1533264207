import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Rate profiles. Every ledger starts with `official`, `parallel` and `manual`, and two devices
/// may each make a profile of one name while apart: the global id is the type and the name
/// (`profile:<type>:<name>`, the name with A–Z in lower case, as SQLite's NOCASE compares), so
/// those are one profile on every device. Two of one name but different types are two profiles,
/// and one is renamed (`SyncNames`). Which profile each mode uses is a setting (`SettingsSync`,
/// D311), not a field here. When it was last updated is not a field either: each device fetches
/// its own rates, and a typed rate that arrives sets it as typing it did (`ManualRateSync`, D443).
enum RateProfileSync: SyncedThing {
    static let entity = "rate_profile"

    private struct Fields: Codable {
        var name: String
        var type: ExchangeMode
        var primarySource: String?
        var notes: String?
        var createdAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: RateProfileRow.databaseTableName, db, after: after, limit: limit)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        try RateProfileRow.nameAndType(db, id: id).map { gid(name: $0.name, type: $0.type) }
    }

    static func gid(name: String, type: String) -> String {
        // NOCASE folds A–Z only: "É" and "é" are two names, and must be two ids.
        "profile:\(type):\(SyncNames.foldedAZ(name))"
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let profile = try RateProfileRow.fetchOne(db, key: id) else { return nil }
        return try SyncFields.object(Fields(
            name: profile.name, type: ExchangeMode(rawValue: profile.type) ?? .manual, primarySource: profile.primarySource, notes: profile.notes,
            createdAt: profile.createdAt))
    }

    /// A profile not known here by its global id may still be here under its name and type, made
    /// before sync was on (the three every ledger starts with): that one is taken, not made twice.
    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let given = try InputRules.name(fields.name, field: field)
        // Taken by name only when the id is that name's: a profile renamed since keeps its id.
        let existing = try localId ?? (gid == Self.gid(name: given, type: fields.type.rawValue)
            ? RateProfileRow.id(named: given, type: fields.type.rawValue, db) : nil)
        let current = try existing.flatMap { try RateProfileRow.fetchOne(db, key: $0) }
        if let current, current.type != fields.type.rawValue {
            throw LedgerError.invalid("a synced rate profile cannot change type", field: field)
        }
        let name = try SyncNames.settle(given, of: (self, gid, existing), among: .rateProfiles, identities: identities, &context)
        var row = try RateProfileRow(
            id: existing ?? (try SyncNames.freeId(idHint, table: RateProfileRow.databaseTableName, db)), name: name, type: fields.type,
            primarySource: try InputRules.optionalText(fields.primarySource, field: field, limit: 50), notes: try InputRules.optionalText(fields.notes, field: field, limit: 1_000),
            isDefault: current?.isDefault ?? false, lastUpdated: current?.lastUpdated, createdAt: fields.createdAt)
        if existing != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        try context.record(existing == nil ? .rateProfileCreated : .rateProfileUpdated, id: String(id), data: row.record)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "rate profile \(localId) was deleted on another device, but rate profiles are not deleted: it stays here"
    }
}
