import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `rates.profile.list|create|use`, `rates.set`, `rates.list`, `rates.history`, `rates.batch`.
///
/// Rates are stored as exact decimal text with their inverse; a pair's history is every rate
/// ever stored, so a conversion "as of" any moment finds the rate in force then.
enum RateHandlers {
    static let maximumBatch = 10_000
    /// A new manual rate this far from the last known one gets a warning (not a refusal:
    /// parallel-market rates do jump).
    static let warningRatio = Decimal(string: "0.5")!

    // MARK: Rows

    static func profile(_ row: Row) -> RateProfileRecord {
        RateProfileRecord(
            id: row["id"], name: row["name"], type: ExchangeMode(rawValue: row["type"]) ?? .manual,
            primarySource: row["primary_source"], notes: row["notes"], isDefault: row["is_default"], lastUpdated: row["last_updated"])
    }

    static func record(_ row: Row, now: Date? = nil) -> RateRecord {
        var record = RateRecord(
            id: row["id"], profileId: row["profile_id"], base: row["base"], quote: row["quote"], rate: row["rate"],
            inverseRate: row["inverse_rate"], source: row["source"], asOf: row["as_of"],
            confidence: RateConfidence(rawValue: row["confidence"]) ?? .manual, customOverride: row["custom_override"])
        if let now, let quote = quote(row) {
            let policy = StalenessPolicy.standard
            record.ageSeconds = policy.age(of: quote, now: now).components.seconds
            record.stale = policy.isStale(quote, now: now)
        }
        return record
    }

    static func quote(_ row: Row) -> RateQuote? {
        guard let rate = try? ExchangeRate(parsing: row["rate"]), let asOf = Timestamp.parse(row["as_of"]) else { return nil }
        return RateQuote(pair: CurrencyPair(row["base"], row["quote"]), rate: rate, inverseRate: try? ExchangeRate(stored: row["inverse_rate"]), asOf: asOf, source: row["source"],
                         confidence: RateQuote.Confidence(rawValue: row["confidence"]) ?? .manual)
    }

    // MARK: Profiles

    static func profile(_ db: Database, id: Int64, field: String) throws -> RateProfileRecord {
        guard let row = try db.cachedRow(sql: "SELECT * FROM rate_profiles WHERE id = ?", arguments: [id]) else {
            throw ErrorBody.notFound("there is no rate profile \(id); see `ledgerly rates profile list`", field: field)
        }
        return profile(row)
    }

    /// The profile a conversion uses: the one named, else the default of the requested mode,
    /// else the default of the exchange mode in settings.
    static func activeProfile(_ db: Database, id: Int64?, mode: ExchangeMode?, field: String) throws -> RateProfileRecord {
        if let id { return try profile(db, id: id, field: field) }
        let type = try mode?.rawValue ?? db.cachedValue(String.self, sql: "SELECT exchange_mode FROM settings WHERE id = 1") ?? "official"
        guard let row = try db.cachedRow(sql: "SELECT * FROM rate_profiles WHERE type = ? ORDER BY is_default DESC, id LIMIT 1", arguments: [type]) else {
            throw ErrorBody.notFound("there is no \(type) rate profile; add one with `ledgerly rates profile add`", field: field)
        }
        return profile(row)
    }

    static func listProfiles(_ request: RateProfileListRequest, _ db: Database) throws -> RateProfileListReply {
        RateProfileListReply(profiles: try db.cachedRows(sql: "SELECT * FROM rate_profiles ORDER BY type, name").map(profile))
    }

    static func createProfile(_ request: RateProfileCreateRequest, _ context: inout WriteContext) throws -> RateProfileRecord {
        let name = try InputRules.name(request.name, field: "body.name")
        if let existing = try context.db.cachedValue(Int64.self, sql: "SELECT id FROM rate_profiles WHERE name = ?", arguments: [name]) {
            throw ErrorBody(code: .conflict, message: "a rate profile named '\(name)' already exists (id \(existing))", field: "body.name")
        }
        try context.db.execute(
            cached: "INSERT INTO rate_profiles (name, type, primary_source, notes, is_default, created_at) VALUES (?, ?, ?, ?, 0, ?)",
            arguments: [name, request.type.rawValue, try InputRules.optionalText(request.primarySource, field: "body.primarySource", limit: 50),
                        try InputRules.optionalText(request.notes, field: "body.notes", limit: 1_000), context.now])
        let created = try profile(context.db, id: context.db.lastInsertedRowID, field: "body.name")
        try context.record(.rateProfileCreated, id: String(created.id), data: created)
        return created
    }

    static func useProfile(_ request: RateProfileUseRequest, _ context: inout WriteContext) throws -> RateProfileRecord {
        let chosen = try profile(context.db, id: request.id, field: "body.id")
        let previous = try context.db.cachedRows(sql: "SELECT * FROM rate_profiles WHERE type = ? AND is_default = 1 AND id != ?", arguments: [chosen.type.rawValue, chosen.id]).map(profile)
        try context.db.execute(cached: "UPDATE rate_profiles SET is_default = (id = ?) WHERE type = ?", arguments: [chosen.id, chosen.type.rawValue])
        try context.db.execute(cached: "UPDATE settings SET exchange_mode = ?, updated_at = ? WHERE id = 1", arguments: [chosen.type.rawValue, context.now])
        for demoted in previous {
            try context.record(.rateProfileUpdated, id: String(demoted.id), data: try profile(context.db, id: demoted.id, field: "body.id"))
        }
        let updated = try profile(context.db, id: chosen.id, field: "body.id")
        try context.record(.rateProfileUpdated, id: String(updated.id), data: updated)
        try context.record(.settingsUpdated, id: "settings", data: try SettingsHandlers.fetch(context.db))
        return updated
    }

    // MARK: Rates

    static func set(_ request: RateSetRequest, _ context: inout WriteContext) throws -> RateSetReply {
        let db = context.db
        let base = try InputRules.currency(request.base, field: "body.base").code
        let quote = try InputRules.currency(request.quote, field: "body.quote").code
        guard base != quote else { throw ErrorBody.validation("a rate needs two different currencies", field: "body.quote") }
        let rate = try exchangeRate(request.rate, field: "body.rate")
        let profile = try activeProfile(db, id: request.profileId, mode: nil, field: "body.profileId")
        let asOf = try moment(request.asOf, field: "body.asOf", default: context.now)
        var warning: String?
        if let last = try db.cachedValue(String.self, sql: "SELECT rate FROM rates WHERE profile_id = ? AND base = ? AND quote = ? ORDER BY as_of DESC LIMIT 1", arguments: [profile.id, base, quote]),
           let previous = try? ExchangeRate(parsing: last) {
            let change = abs(rate.value - previous.value) / previous.value
            if change > warningRatio {
                warning = "\(base)→\(quote) \(rate) differs from the last known rate \(previous) by more than 50 %; stored as given"
            }
        }
        // Typing a rate again for the same moment corrects it (a typo), rather than being ignored.
        try db.execute(
            cached: """
                INSERT INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at)
                VALUES (?, ?, ?, ?, ?, 'manual', ?, 'manual', ?, ?)
                ON CONFLICT (profile_id, base, quote, as_of, source)
                DO UPDATE SET rate = excluded.rate, inverse_rate = excluded.inverse_rate, custom_override = excluded.custom_override
                """,
            arguments: [profile.id, base, quote, rate.decimalString, rate.inverse.decimalString, asOf, request.customOverride ?? false, context.now])
        guard let row = try db.cachedRow(
            sql: "SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? AND as_of = ? AND source = 'manual'",
            arguments: [profile.id, base, quote, asOf])
        else { throw ErrorBody(code: .internal, message: "the rate was stored but cannot be read back") }
        let stored = record(row)
        try touch(db, profileId: profile.id, now: context.now)
        try context.record(.ratesUpdated, id: String(profile.id), data: RatesUpdatedSummary(profileId: profile.id, source: "manual", stored: 1, pairs: ["\(base)/\(quote)"], truncated: false, newestAsOf: asOf))
        return RateSetReply(rate: stored, warning: warning)
    }

    static func list(_ request: RateListRequest, _ db: Database, now: Date) throws -> RateListReply {
        let profile = try activeProfile(db, id: request.profileId, mode: nil, field: "body.profileId")
        let rows = try db.cachedRows(sql: """
            SELECT r.* FROM rates r
            WHERE r.profile_id = ? AND r.id = (
                SELECT id FROM rates x WHERE x.profile_id = r.profile_id AND x.base = r.base AND x.quote = r.quote
                  AND x.as_of <= ?
                ORDER BY x.custom_override DESC, x.as_of DESC, x.id DESC LIMIT 1)
            ORDER BY r.base, r.quote
            """, arguments: [profile.id, Timestamp.string(from: now)])
        return RateListReply(profile: profile, rates: rows.map { record($0, now: now) })
    }

    static func history(_ request: RateHistoryRequest, _ db: Database, now: Date) throws -> RateHistoryReply {
        let base = try InputRules.currency(request.base, field: "body.base").code
        let quote = try InputRules.currency(request.quote, field: "body.quote").code
        let profile = try activeProfile(db, id: request.profileId, mode: nil, field: "body.profileId")
        let limit = request.limit ?? 100
        guard (1...10_000).contains(limit) else { throw ErrorBody.validation("body.limit must be 1 to 10000, got \(limit)", field: "body.limit") }
        let rows = try db.cachedRows(
            sql: "SELECT * FROM rates WHERE profile_id = ? AND base = ? AND quote = ? ORDER BY as_of DESC, id DESC LIMIT ?",
            arguments: [profile.id, base, quote, limit])
        return RateHistoryReply(rates: rows.map { record($0, now: now) })
    }

    /// All or nothing: every rate is checked before any is stored.
    static func batch(_ request: RateBatchRequest, _ context: inout WriteContext) throws -> RateBatchReply {
        let db = context.db
        let profile = try profile(db, id: request.profileId, field: "body.profileId")
        let source = try InputRules.name(request.source, field: "body.source")
        guard (1...maximumBatch).contains(request.rates.count) else {
            throw ErrorBody.validation("a batch holds 1 to \(maximumBatch) rates, got \(request.rates.count)", field: "body.rates")
        }
        var checked: [(String, String, ExchangeRate, String)] = []
        for (index, input) in request.rates.enumerated() {
            let field = "body.rates[\(index)]"
            let base = try InputRules.currency(input.base, field: "\(field).base").code
            let quote = try InputRules.currency(input.quote, field: "\(field).quote").code
            guard base != quote else { throw ErrorBody.validation("\(field) has the same currency on both sides", field: "\(field).quote") }
            checked.append((base, quote, try exchangeRate(input.rate, field: "\(field).rate"), try moment(input.asOf, field: "\(field).asOf", default: context.now)))
        }
        var stored = 0
        var pairs: [String] = []
        for (base, quote, rate, asOf) in checked {
            if try insert(db, profileId: profile.id, base: base, quote: quote, rate: rate, source: source, asOf: asOf, confidence: .fetched, override: false, now: context.now) {
                stored += 1
                let pair = "\(base)/\(quote)"
                if pairs.count <= 100, !pairs.contains(pair) { pairs.append(pair) }
            }
        }
        if stored > 0 {
            try touch(db, profileId: profile.id, now: context.now)
            try context.record(.ratesUpdated, id: String(profile.id), data: RatesUpdatedSummary(
                profileId: profile.id, source: source, stored: stored, pairs: Array(pairs.prefix(100)), truncated: pairs.count > 100,
                newestAsOf: checked.map(\.3).max()))
        }
        return RateBatchReply(stored: stored, skipped: checked.count - stored)
    }

    // MARK: Helpers

    static func exchangeRate(_ text: String, field: String) throws(ErrorBody) -> ExchangeRate {
        do { return try ExchangeRate(parsing: text) } catch { throw .validation("\(field): \(error.description)", field: field) }
    }

    /// A stored moment: ISO 8601 in, the canonical millisecond UTC form out, so text order is
    /// time order. A date alone means the start of that day (the rate holds from then on). Not in
    /// the future (a few minutes of clock skew aside), and a four-digit year.
    static func moment(_ text: String?, field: String, default now: String) throws(ErrorBody) -> String {
        guard let text else { return now }
        guard let date = text.count == 10 ? Timestamp.parse(text).map({ $0.addingTimeInterval(-86_400 + 0.001) }) : Timestamp.parse(text) else {
            throw .validation("\(field) must be an ISO 8601 time or a date (YYYY-MM-DD), got '\(text)'", field: field)
        }
        guard date <= Date().addingTimeInterval(300) else {
            throw .validation("\(field) \(text) is in the future: a rate applies from when it is known", field: field)
        }
        let canonical = Timestamp.string(from: date)
        guard canonical.count == 24, canonical >= "1970" else {
            throw .validation("\(field) \(text) is outside the years Ledgerly keeps rates for", field: field)
        }
        return canonical
    }

    /// Stores one rate; false when the same pair, moment and source was already stored.
    @discardableResult
    private static func insert(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, source: String, asOf: String, confidence: RateConfidence, override: Bool, now: String) throws -> Bool {
        try db.execute(
            cached: "INSERT OR IGNORE INTO rates (profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [profileId, base, quote, rate.decimalString, rate.inverse.decimalString, source, asOf, confidence.rawValue, override, now])
        return db.changesCount > 0
    }

    private static func touch(_ db: Database, profileId: Int64, now: String) throws {
        try db.execute(cached: "UPDATE rate_profiles SET last_updated = ? WHERE id = ?", arguments: [now, profileId])
    }
}
