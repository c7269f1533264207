import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `rates`: the one type that reads and writes the table (D454), and the one place a
/// stored rate becomes its wire record (`record`) and the engine's quote (`quoteForEngine`).
///
/// Every statement on the table is a named function below, as cached SQL kept word for word (D455, D456): a provider batch or an ECB history import stores tens of
/// thousands of rates, one statement run per rate, and the in-force lookup runs per conversion.
struct RateRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "rates"

    enum Columns {
        static let id = Column("id")
        static let profileId = Column("profile_id")
        static let base = Column("base")
        static let quote = Column("quote")
        static let rate = Column("rate")
        static let inverseRate = Column("inverse_rate")
        static let source = Column("source")
        static let asOf = Column("as_of")
        static let confidence = Column("confidence")
        static let customOverride = Column("custom_override")
        static let overrideEndedAt = Column("override_ended_at")
        static let confirmedAt = Column("confirmed_at")
        static let createdAt = Column("created_at")
        static let revision = Column("revision")
    }

    var id: Int64
    var profileId: Int64
    var base: String
    var quote: String
    /// Exact decimal text (`ExchangeRate`), never a binary float.
    var rate: String
    var inverseRate: String
    var source: String
    var asOf: String
    var confidence: String
    var customOverride: Bool
    var overrideEndedAt: String?
    var confirmedAt: String?
    /// When this ledger stored the row (sync carries it for typed rates).
    var createdAt: String
    /// The moment's correction number from one source, 0 for the first value (D402).
    var revision: Int64

    init(row: Row) {
        id = row[Columns.id]
        profileId = row[Columns.profileId]
        base = row[Columns.base]
        quote = row[Columns.quote]
        rate = row[Columns.rate]
        inverseRate = row[Columns.inverseRate]
        source = row[Columns.source]
        asOf = row[Columns.asOf]
        confidence = row[Columns.confidence]
        customOverride = row[Columns.customOverride]
        overrideEndedAt = row[Columns.overrideEndedAt]
        confirmedAt = row[Columns.confirmedAt]
        createdAt = row[Columns.createdAt]
        revision = row[Columns.revision]
    }

    /// The rate as the protocol sends it; with `now` and `policy`, also its age and whether it is stale.
    func record(now: Date? = nil, policy: StalenessPolicy = .standard) -> RateRecord {
        var record = RateRecord(
            id: id, profileId: profileId, base: base, quote: quote, rate: rate, inverseRate: inverseRate, source: source, asOf: asOf,
            confidence: RateConfidence(rawValue: confidence) ?? .manual, customOverride: customOverride,
            overrideEndedAt: overrideEndedAt, confirmedAt: confirmedAt)
        if let now, let quote = self.quoteForEngine {
            record.ageSeconds = policy.age(of: quote, now: now).components.seconds
            record.stale = policy.isStale(quote, now: now)
        }
        return record
    }

    /// The rate as the conversion engine reads it; nil for text that is not a rate or a time
    /// (never written by this store).
    var quoteForEngine: RateQuote? {
        guard let parsed = try? ExchangeRate(parsing: rate), let moment = Timestamp.parse(asOf) else { return nil }
        return RateQuote(pair: CurrencyPair(base, quote), rate: parsed, inverseRate: try? ExchangeRate(stored: inverseRate), asOf: moment, source: source,
                         confidence: RateQuote.Confidence(rawValue: confidence) ?? .manual,
                         confirmedAt: confirmedAt.flatMap(Timestamp.parse), isOverride: customOverride)
    }
}

// MARK: Statements (D454–D456)

extension RateRow {
    /// The rate in force for exactly this pair at a moment (stored text): the newest override
    /// that had begun and not yet ended, else the newest ordinary rate at or before it. Two
    /// indexed lookups rather than one sort over the pair's whole history.
    static func inForce(_ db: Database, profileId: Int64, base: String, quote: String, at cutoff: String) throws -> RateRow? {
        if let override = try db.cachedRow(
            sql: """
                SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND custom_override = 1 AND as_of <= ?
                  AND (override_ended_at IS NULL OR override_ended_at > ?)
                ORDER BY as_of DESC, id DESC LIMIT 1
                """,
            arguments: [profileId, base, quote, cutoff, cutoff]) {
            return RateRow(row: override)
        }
        return try db.cachedRow(
            sql: "SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND custom_override = 0 AND as_of <= ? ORDER BY as_of DESC, id DESC LIMIT 1",
            arguments: [profileId, base, quote, cutoff]).map(RateRow.init(row:))
    }

    static func find(_ db: Database, id: Int64) throws -> RateRow? {
        try db.cachedRow(sql: "SELECT * FROM rates WHERE id = ?", arguments: [id]).map(RateRow.init(row:))
    }

    /// The value of the pair's newest rate in a profile, whatever its source.
    static func lastRate(_ db: Database, profileId: Int64, base: String, quote: String) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT rate FROM rates WHERE profile_id = ? AND base = ? AND quote = ? ORDER BY as_of DESC, id DESC LIMIT 1", arguments: [profileId, base, quote])
    }

    /// Every pair the profile has a rate for, by base then quote.
    static func pairs(_ db: Database, profileId: Int64) throws -> [(base: String, quote: String)] {
        try db.cachedRows(sql: "SELECT DISTINCT base, quote FROM rates WHERE profile_id = ? ORDER BY base, quote", arguments: [profileId])
            .map { ($0["base"], $0["quote"]) }
    }

    /// The pair's newest `limit` rates, newest first.
    static func history(_ db: Database, profileId: Int64, base: String, quote: String, limit: Int) throws -> [RateRow] {
        try db.cachedRows(
            sql: "SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? ORDER BY as_of DESC, id DESC LIMIT ?",
            arguments: [profileId, base, quote, limit]).map(RateRow.init(row:))
    }

    /// Up to `limit` rates after `after`, by id (an export page).
    static func page(_ db: Database, after: Int64, limit: Int) throws -> [RateRow] {
        try db.cachedRows(sql: "SELECT * FROM rates WHERE id > ? ORDER BY id LIMIT ?", arguments: [after, limit]).map(RateRow.init(row:))
    }

    // MARK: Typed rates (`rates set`)

    /// Stores a typed rate (revision 0), or corrects the one typed for the same moment in place
    /// (its override ended no longer).
    static func upsertTyped(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, asOf: String, customOverride: Bool,
                            now: String, confirmedAt: String?) throws {
        try db.execute(
            cached: """
                INSERT INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at, confirmed_at)
                VALUES (?, ?, ?, ?, ?, 'manual', ?, 'manual', ?, ?, ?)
                ON CONFLICT (profile_id, base, quote, as_of, source, revision)
                DO UPDATE SET rate = excluded.rate, inverse_rate = excluded.inverse_rate, custom_override = excluded.custom_override,
                              confirmed_at = excluded.confirmed_at, override_ended_at = NULL
                """,
            arguments: [profileId, base, quote, rate.decimalString, rate.inverse.decimalString, asOf, customOverride, now, confirmedAt])
    }

    /// The rate typed for this pair and moment (revision 0), as `upsertTyped` left it.
    static func typed(_ db: Database, profileId: Int64, base: String, quote: String, asOf: String) throws -> RateRow? {
        try db.cachedRow(
            sql: "SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND as_of = ? AND source = 'manual' AND revision = 0",
            arguments: [profileId, base, quote, asOf]).map(RateRow.init(row:))
    }

    /// The overrides of a pair, in both directions, that have not ended, by id.
    static func activeOverrideIds(_ db: Database, profileId: Int64, base: String, quote: String) throws -> [Int64] {
        try db.cachedRows(
            sql: """
                SELECT id FROM rates WHERE profile_id = ? AND ((base = ? AND quote = ?) OR (base = ? AND quote = ?))
                  AND custom_override = 1 AND override_ended_at IS NULL ORDER BY id
                """,
            arguments: [profileId, base, quote, quote, base]).map { $0["id"] as Int64 }
    }

    static func endOverride(_ db: Database, id: Int64, at now: String) throws {
        try db.execute(cached: "UPDATE rates SET override_ended_at = ? WHERE id = ?", arguments: [now, id])
    }

    // MARK: Fetched rates (`rates.batch`) and restores

    /// The newest revision a source stored for a pair's moment, if any.
    static func newestRevision(_ db: Database, profileId: Int64, base: String, quote: String, asOf: String, source: String) throws
        -> (id: Int64, rate: String, revision: Int64)? {
        try db.cachedRow(
            sql: "SELECT id, rate, revision FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND as_of = ? AND source = ? ORDER BY revision DESC LIMIT 1",
            arguments: [profileId, base, quote, asOf, source]).map { ($0["id"], $0["rate"], $0["revision"]) }
    }

    static func confirm(_ db: Database, id: Int64, at now: String) throws {
        try db.execute(cached: "UPDATE rates SET confirmed_at = ? WHERE id = ?", arguments: [now, id])
    }

    static func insertFetched(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, source: String, asOf: String,
                              now: String, confirmedAt: String?, revision: Int64) throws {
        try db.execute(
            cached: "INSERT INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at, confirmed_at, revision) VALUES (?, ?, ?, ?, ?, ?, ?, 'fetched', 0, ?, ?, ?)",
            arguments: [profileId, base, quote, rate.decimalString, rate.inverse.decimalString, source, asOf, now, confirmedAt, revision])
    }

    /// Every revision a source stored for a pair's moment, with its value, by revision.
    static func revisions(_ db: Database, profileId: Int64, base: String, quote: String, asOf: String, source: String) throws -> [(rate: String, revision: Int64)] {
        try db.cachedRows(
            sql: "SELECT rate, revision FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND as_of = ? AND source = ? ORDER BY revision",
            arguments: [profileId, base, quote, asOf, source]).map { ($0["rate"], $0["revision"]) }
    }

    /// A restored rate, every column as exported but `created_at` (now) and `revision` (given).
    static func insertRestored(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, inverse: ExchangeRate, source: String,
                               asOf: String, confidence: String, customOverride: Bool, overrideEndedAt: String?, confirmedAt: String?,
                               now: String, revision: Int64) throws {
        try db.execute(
            cached: """
                INSERT INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, override_ended_at, confirmed_at, created_at, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [profileId, base, quote, rate.decimalString, inverse.decimalString, source,
                        asOf, confidence, customOverride, overrideEndedAt, confirmedAt, now, revision])
    }

    // MARK: Typed rates as sync carries them (source `manual`)

    static let manual = "source = 'manual'"

    /// Every typed rate of one profile, by id.
    static func manualIds(_ db: Database, profileId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM rates WHERE profile_id = ? AND source = 'manual' ORDER BY id", arguments: [profileId])
    }

    /// The typed rate of one profile, pair and moment, if there is one.
    static func manualId(_ db: Database, profileId: Int64, base: String, quote: String, asOf: String) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND as_of = ? AND source = 'manual'",
                           arguments: [profileId, base, quote, asOf])
    }

    /// A typed rate's profile, pair and moment (its key), if `id` is a typed rate.
    static func manualKey(_ db: Database, id: Int64) throws -> (profileId: Int64, base: String, quote: String, asOf: String)? {
        try db.cachedRow(sql: "SELECT profile_id, base, quote, as_of FROM rates WHERE id = ? AND source = 'manual'", arguments: [id]).map { ($0[0], $0[1], $0[2], $0[3]) }
    }

    /// The typed rate `id`, if it is one.
    static func findManual(_ db: Database, id: Int64) throws -> RateRow? {
        try db.cachedRow(sql: "SELECT * FROM rates WHERE id = ? AND source = 'manual'", arguments: [id]).map(RateRow.init(row:))
    }

    /// Stores a typed rate from another device, or sets every synced column of the one typed for
    /// the same moment.
    static func upsertSynced(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, asOf: String, customOverride: Bool,
                             createdAt: String, confirmedAt: String?, overrideEndedAt: String?) throws {
        try db.execute(cached: """
            INSERT INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at, confirmed_at, override_ended_at)
            VALUES (?, ?, ?, ?, ?, 'manual', ?, 'manual', ?, ?, ?, ?)
            ON CONFLICT (profile_id, base, quote, as_of, source, revision)
            DO UPDATE SET rate = excluded.rate, inverse_rate = excluded.inverse_rate, custom_override = excluded.custom_override,
                          created_at = excluded.created_at, confirmed_at = excluded.confirmed_at, override_ended_at = excluded.override_ended_at
            """, arguments: [profileId, base, quote, rate.decimalString, rate.inverse.decimalString, asOf, customOverride, createdAt,
                             confirmedAt, overrideEndedAt])
    }
}
