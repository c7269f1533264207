import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Rates typed by hand (`rates set`, source `manual`), overrides included. A rate is known by its
/// profile, pair and moment (the table's key), so the global id is made of them
/// (`rate:<profile gid>:<BASE>/<QUOTE>@<asOf>`): the same moment typed on two devices apart is one
/// rate, the later value winning. Fetched rates are not synced: every device fetches its own, and
/// a synced transaction carries the rates it was converted with.
enum ManualRateSync: SyncedThing {
    static let entity = "manual_rate"

    private struct Fields: Codable {
        var profile: String
        var base: String
        var quote: String
        var asOf: String
        var rate: String
        var customOverride: Bool
        var confirmedAt: String?
        var overrideEndedAt: String?
        var createdAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: RateRow.databaseTableName, filter: RateRow.manual, db, after: after, limit: limit)
    }

    /// Every typed rate of one profile.
    static func ids(profileId: Int64, _ db: Database) throws -> [Int64] {
        try RateRow.manualIds(db, profileId: profileId)
    }

    /// The manual rate of one profile, pair and moment, if there is one.
    static func id(profileId: Int64, base: String, quote: String, asOf: String, _ db: Database) throws -> Int64? {
        try RateRow.manualId(db, profileId: profileId, base: base, quote: quote, asOf: asOf)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let key = try RateRow.manualKey(db, id: id) else { return nil }
        return "rate:\(try identities.gid(RateProfileSync.self, localId: key.profileId)):\(key.base)/\(key.quote)@\(key.asOf)"
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let row = try RateRow.findManual(db, id: id) else { return nil }
        return try SyncFields.object(Fields(
            profile: try identities.gid(RateProfileSync.self, localId: row.profileId), base: row.base, quote: row.quote, asOf: row.asOf,
            rate: row.rate, customOverride: row.customOverride, confirmedAt: row.confirmedAt, overrideEndedAt: row.overrideEndedAt,
            createdAt: row.createdAt))
    }

    /// Written as `rates set` writes it; a rate for the profile in use fills in the base amounts
    /// of transactions that waited for it, as a typed one does.
    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let profileId = try identities.localId(RateProfileSync.self, gid: fields.profile, field: "profile")
        let (base, quote) = try RateHandlers.pair(fields.base, fields.quote)
        let rate = try RateHandlers.exchangeRate(fields.rate, field: field)
        let asOf = try InputRules.timestamp(fields.asOf, field: field)
        guard gid == "rate:\(fields.profile):\(base)/\(quote)@\(asOf)" else {
            throw LedgerError.invalid("a synced rate for \(base)/\(quote) at \(asOf) does not have that rate's id (\(gid))", field: field)
        }
        try RateRow.upsertSynced(db, profileId: profileId, base: base, quote: quote, rate: rate, asOf: asOf, customOverride: fields.customOverride,
                                 createdAt: fields.createdAt, confirmedAt: fields.confirmedAt, overrideEndedAt: fields.overrideEndedAt)
        // The profile's "last updated" is the moment a rate was last typed into it: where it was
        // typed, the write's time, which is the rate's `createdAt` (or its `confirmedAt`, typed
        // again for now). Every device derives it alike from the rate (issue 44, C4; D443), so
        // it is not only on the device that typed it; a later one here is kept.
        let typed = [fields.createdAt, fields.confirmedAt].compactMap { $0 }.max() ?? fields.createdAt
        try RateProfileRow.touch(db, id: profileId, ifLaterThanStored: typed)
        guard let id = try Self.id(profileId: profileId, base: base, quote: quote, asOf: asOf, db) else {
            throw LedgerError.broken("the synced rate was stored but cannot be read back")
        }
        try context.record(.ratesUpdated, id: String(profileId), data: RatesUpdatedSummary(
            profileId: profileId, source: "manual", stored: 1, confirmed: 0, pairs: ["\(base)/\(quote)"], truncated: false, newestAsOf: asOf))
        if try RateHandlers.activeProfile(db, id: nil, mode: nil, field: field).id == profileId { try BaseAmountBackfill.run(&context) }
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "a rate was deleted on another device, but rates are not deleted: it stays here"
    }
}
