import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `rates.profile.list|create|use`, `rates.set`, `rates.list`, `rates.history`, `rates.batch`,
/// `rates.override.end`.
///
/// Rates are stored as exact decimal text with their inverse; a pair's history is every rate
/// ever stored, so a conversion "as of" any moment finds the rate in force then.
enum RateHandlers {
    static let maximumBatch = 10_000
    /// A new manual rate this far from the last known one gets a warning (not a refusal:
    /// parallel-market rates do jump).
    static let warningRatio = Decimal(string: "0.5")!

    // MARK: Profiles

    static func profile(_ db: Database, id: Int64, field: FieldPath) throws -> RateProfileRecord {
        guard let row = try RateProfileRow.find(db, id: id) else {
            throw LedgerError.notFound("there is no rate profile \(id); see `ledgerly rates profile list`", field: field)
        }
        return row.record
    }

    /// The profile a conversion uses: the one named, else the default of the requested mode,
    /// else the default of the exchange mode in settings.
    static func activeProfile(_ db: Database, id: Int64?, mode: ExchangeMode?, field: FieldPath) throws -> RateProfileRecord {
        if let id { return try profile(db, id: id, field: field) }
        let type = try mode?.rawValue ?? SettingsRow.exchangeMode(db) ?? "official"
        guard let row = try RateProfileRow.defaultOf(db, type: type) else {
            throw LedgerError.notFound("there is no \(type) rate profile; add one with `ledgerly rates profile add`", field: field)
        }
        return row.record
    }

    static func listProfiles(_ request: RateProfileListRequest, _ db: Database) throws -> RateProfileListReply {
        RateProfileListReply(profiles: try RateProfileRow.order(RateProfileRow.Columns.type, RateProfileRow.Columns.name).fetchAll(db).map(\.record))
    }

    static func createProfile(_ request: RateProfileCreateRequest, _ context: inout WriteContext) throws -> RateProfileRecord {
        let name = try InputRules.name(request.name, field: .body("name"))
        if let existing = try RateProfileRow.id(named: name, context.db) {
            throw LedgerError.conflict("a rate profile named '\(name)' already exists (id \(existing))", field: .body("name"))
        }
        var row = RateProfileRow(name: name, type: request.type, primarySource: try InputRules.optionalText(request.primarySource, field: .body("primarySource"), limit: 50),
                                 notes: try InputRules.optionalText(request.notes, field: .body("notes"), limit: 1_000), isDefault: false, lastUpdated: nil, createdAt: context.now)
        try row.insert(context.db)
        let created = row.record
        try context.record(.rateProfileCreated, id: String(created.id), data: created)
        return created
    }

    static func useProfile(_ request: RateProfileUseRequest, _ context: inout WriteContext) throws -> RateProfileRecord {
        let chosen = try profile(context.db, id: request.id, field: .body("id"))
        let previous = try RateProfileRow.otherDefaults(context.db, type: chosen.type.rawValue, except: chosen.id).map(\.record)
        let modeBefore = try SettingsRow.exchangeMode(context.db)
        try RateProfileRow.makeDefault(context.db, id: chosen.id, type: chosen.type.rawValue)
        // One event per record that changed, none for what stayed: the profile that lost its
        // default flag, the one that gained it, and the settings when the mode switched.
        for demoted in previous {
            try context.record(.rateProfileUpdated, id: String(demoted.id), data: try profile(context.db, id: demoted.id, field: .body("id")))
        }
        let updated = try profile(context.db, id: chosen.id, field: .body("id"))
        if !chosen.isDefault { try context.record(.rateProfileUpdated, id: String(updated.id), data: updated) }
        if modeBefore != chosen.type.rawValue {
            try SettingsRow.setExchangeMode(context.db, chosen.type.rawValue, now: context.now)
            try context.record(.settingsUpdated, id: "settings", data: try SettingsHandlers.fetch(context.db))
        }
        return updated
    }

    // MARK: Rates

    static func set(_ request: RateSetRequest, _ context: inout WriteContext) throws -> RateSetReply {
        let db = context.db
        let (base, quote) = try pair(request.base, request.quote)
        let rate = try exchangeRate(request.rate, field: .body("rate"))
        let profile = try activeProfile(db, id: request.profileId, mode: nil, field: .body("profileId"))
        let asOf = try moment(request.asOf, field: .body("asOf"), now: context.date)
        var warning: String?
        if let last = try RateRow.lastRate(db, profileId: profile.id, base: base, quote: quote),
           let previous = try? ExchangeRate(parsing: last) {
            let change = abs(rate.value - previous.value) / previous.value
            if change > warningRatio {
                warning = "\(base)→\(quote) \(rate) differs from the last known rate \(previous) by more than 50 %; stored as given"
            }
        }
        // Typing a rate again for the same moment corrects it (a typo) in place: a typed rate is
        // always revision 0 (a feed's corrections are new revisions, D402). Its age counts from
        // its moment (D401): a rate typed for now is fresh, one typed for a past moment is as
        // old as that moment.
        try RateRow.upsertTyped(db, profileId: profile.id, base: base, quote: quote, rate: rate, asOf: asOf, customOverride: request.customOverride ?? false,
                                now: context.now, confirmedAt: request.asOf == nil ? context.now : nil)
        guard let row = try RateRow.typed(db, profileId: profile.id, base: base, quote: quote, asOf: asOf)
        else { throw LedgerError.broken("the rate was stored but cannot be read back") }
        let stored = row.record()
        try touch(db, profileId: profile.id, now: context.now)
        try context.record(.ratesUpdated, id: String(profile.id), data: RatesUpdatedSummary(profileId: profile.id, source: "manual", stored: 1, confirmed: 0, pairs: ["\(base)/\(quote)"], truncated: false, newestAsOf: asOf))
        if try activeProfile(db, id: nil, mode: nil, field: .body("profileId")).id == profile.id { try BaseAmountBackfill.run(&context) }
        return RateSetReply(rate: stored, warning: warning)
    }

    /// Ends the active overrides of a pair in both directions: from now on the feed applies.
    static func endOverride(_ request: RateOverrideEndRequest, _ context: inout WriteContext) throws -> RateOverrideEndReply {
        let db = context.db
        let (base, quote) = try pair(request.base, request.quote)
        let profile = try activeProfile(db, id: request.profileId, mode: nil, field: .body("profileId"))
        let active = try RateRow.activeOverrideIds(db, profileId: profile.id, base: base, quote: quote)
        guard !active.isEmpty else {
            throw LedgerError.notFound("there is no active override for \(base)/\(quote) in profile '\(profile.name)'; see `ledgerly rates list`", field: .body("base"))
        }
        var ended: [RateRecord] = []
        for id in active {
            try RateRow.endOverride(db, id: id, at: context.now)
            let rate = try RateRow.find(db, id: id)!.record()
            try context.record(.rateOverrideEnded, id: String(id), data: rate)
            ended.append(rate)
        }
        return RateOverrideEndReply(ended: ended)
    }

    /// The rate in force now for every pair the profile has, with its age.
    static func list(_ request: RateListRequest, _ context: ReadContext) throws -> RateListReply {
        let db = context.db, now = context.date
        let profile = try activeProfile(db, id: try InputRules.optionalId(request.profileId, field: .body("profileId")), mode: nil, field: .body("profileId"))
        let policy = try SettingsHandlers.stalenessPolicy(db)
        let cutoff = Timestamp.string(from: now)
        let pairs = try RateRow.pairs(db, profileId: profile.id)
        let rows = try pairs.compactMap { pair in try RateRow.inForce(db, profileId: profile.id, base: pair.base, quote: pair.quote, at: cutoff) }
        return RateListReply(profile: profile, rates: rows.map { $0.record(now: now, policy: policy) })
    }

    static func history(_ request: RateHistoryRequest, _ context: ReadContext) throws -> RateHistoryReply {
        let db = context.db, now = context.date
        let (base, quote) = try pair(request.base, request.quote)
        let policy = try SettingsHandlers.stalenessPolicy(db)
        let profile = try activeProfile(db, id: try InputRules.optionalId(request.profileId, field: .body("profileId")), mode: nil, field: .body("profileId"))
        let limit = request.limit ?? 100
        guard (1...10_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 10000, got \(limit)", field: .body("limit")) }
        let rows = try RateRow.history(db, profileId: profile.id, base: base, quote: quote, limit: limit)
        return RateHistoryReply(rates: rows.map { $0.record(now: now, policy: policy) })
    }

    /// All or nothing: every rate is checked before any is stored. A rate already there with the
    /// same value is confirmed (`confirmedAt`); with another value for the same moment it is a
    /// correction, kept beside the first (D402). Rates that arrive may complete base amounts that
    /// were waiting for them.
    static func batch(_ request: RateBatchRequest, _ context: inout WriteContext) throws -> RateBatchReply {
        let db = context.db
        let profile = try profile(db, id: request.profileId, field: .body("profileId"))
        let source = try InputRules.name(request.source, field: .body("source"))
        guard (1...maximumBatch).contains(request.rates.count) else {
            throw LedgerError.invalid("a batch holds 1 to \(maximumBatch) rates, got \(request.rates.count)", field: .body("rates"))
        }
        var checked: [(String, String, ExchangeRate, String)] = []
        for (index, input) in request.rates.enumerated() {
            let field = FieldPath.body("rates")[index]
            let base = try InputRules.currency(input.base, field: field.member("base")).code
            let quote = try InputRules.currency(input.quote, field: field.member("quote")).code
            guard base != quote else { throw LedgerError.invalid("\(field) has the same currency on both sides", field: field.member("quote")) }
            checked.append((base, quote, try exchangeRate(input.rate, field: field.member("rate")), try moment(input.asOf, field: field.member("asOf"), now: context.date)))
        }
        // Only a pair's newest rate in the batch is confirmed as current: the rest of a history
        // file is history, not a statement about now.
        var newest: [String: String] = [:]
        for (base, quote, _, asOf) in checked where asOf > newest["\(base)/\(quote)", default: ""] { newest["\(base)/\(quote)"] = asOf }
        var stored = 0, confirmed = 0, corrected = 0
        var pairs: [String] = []
        for (base, quote, rate, asOf) in checked {
            let current = newest["\(base)/\(quote)"] == asOf
            switch try insertOrConfirm(db, profileId: profile.id, base: base, quote: quote, rate: rate, source: source, asOf: asOf,
                                       confirm: current, now: context.now) {
            case .stored: stored += 1
            case .confirmed: confirmed += 1
            case .corrected: corrected += 1
            }
            let pair = "\(base)/\(quote)"
            if pairs.count <= 100, !pairs.contains(pair) { pairs.append(pair) }
        }
        var backfilled = 0
        if stored + confirmed + corrected > 0 {
            try touch(db, profileId: profile.id, now: context.now)
            // A correction is a rate stored: the event counts it with the new ones.
            try context.record(.ratesUpdated, id: String(profile.id), data: RatesUpdatedSummary(
                profileId: profile.id, source: source, stored: stored + corrected, confirmed: confirmed, pairs: Array(pairs.prefix(100)), truncated: pairs.count > 100,
                newestAsOf: checked.map(\.3).max()))
        }
        if stored + corrected > 0, try activeProfile(db, id: nil, mode: nil, field: .body("profileId")).id == profile.id {
            backfilled = try BaseAmountBackfill.run(&context)
        }
        return RateBatchReply(stored: stored, confirmed: confirmed, skipped: 0, backfilled: backfilled, corrected: corrected)
    }

    // MARK: Helpers

    /// Two different currencies from `body.base` and `body.quote`.
    static func pair(_ base: String, _ quote: String) throws(LedgerError) -> (String, String) {
        let base = try InputRules.currency(base, field: .body("base")).code
        let quote = try InputRules.currency(quote, field: .body("quote")).code
        guard base != quote else { throw .invalid("a rate needs two different currencies", field: .body("quote")) }
        return (base, quote)
    }

    static func exchangeRate(_ text: String, field: FieldPath) throws(LedgerError) -> ExchangeRate {
        do { return try ExchangeRate(parsing: text) } catch { throw .invalid("\(field): \(error.description)", field: field) }
    }

    /// A stored moment: ISO 8601 in (read strictly), the canonical millisecond UTC form out, so
    /// text order is time order. A date alone means the start of that day (the rate holds from
    /// then on). Not in the future (a few minutes of clock skew aside), and not before 1970.
    static func moment(_ text: String?, field: FieldPath, now: Date) throws(LedgerError) -> String {
        guard let text else { return Timestamp.string(from: now) }
        let date = try InputRules.moment(text, field: field, date: .startOfDay)
        guard date <= now.addingTimeInterval(300) else {
            throw .invalid("\(field) \(text) is in the future: a rate applies from when it is known", field: field)
        }
        let canonical = Timestamp.string(from: date)
        guard canonical.count == 24, canonical >= "1970" else {
            throw .invalid("\(field) \(text) is outside the years Ledgerly keeps rates for (1970 on)", field: field)
        }
        return canonical
    }

    enum FetchedRateOutcome { case stored, confirmed, corrected }

    /// Stores one fetched rate, or confirms it (`confirm`: it is its pair's current rate) when the
    /// moment's newest revision from this source has the same value. Another value is a
    /// correction (a feed serving USD 1.08, then 1.09 for the same date): stored as the moment's
    /// next revision, so the history keeps both, newest first, and the rate in force (newest id
    /// of the moment) is the corrected one. Snapshots taken with the first keep it (D402).
    private static func insertOrConfirm(_ db: Database, profileId: Int64, base: String, quote: String, rate: ExchangeRate, source: String, asOf: String,
                                        confirm: Bool, now: String) throws -> FetchedRateOutcome {
        let confirmedAt: String? = confirm ? now : nil
        let latest = try RateRow.newestRevision(db, profileId: profileId, base: base, quote: quote, asOf: asOf, source: source)
        if let latest, latest.rate == rate.decimalString {
            if confirm { try RateRow.confirm(db, id: latest.id, at: now) }
            return .confirmed
        }
        let revision: Int64 = latest.map { $0.revision + 1 } ?? 0
        try RateRow.insertFetched(db, profileId: profileId, base: base, quote: quote, rate: rate, source: source, asOf: asOf,
                                  now: now, confirmedAt: confirmedAt, revision: revision)
        return latest == nil ? .stored : .corrected
    }

    private static func touch(_ db: Database, profileId: Int64, now: String) throws {
        try RateProfileRow.touch(db, id: profileId, now: now)
    }
}
