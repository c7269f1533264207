import LedgerlyCore

/// A named series of rates: the ECB's official rates, a parallel-market feed, the user's own.
public struct RateProfileRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    /// Which exchange mode the profile serves.
    public var type: ExchangeMode
    /// The source its rates normally come from ("ecb", "frankfurter", "dropfolder", "manual").
    public var primarySource: String?
    public var notes: String?
    /// The profile used for its type's exchange mode (one per type).
    public var isDefault: Bool
    /// When a rate was last stored in it.
    public var lastUpdated: String?

    public init(id: Int64, name: String, type: ExchangeMode, primarySource: String?, notes: String?, isDefault: Bool, lastUpdated: String?) {
        self.id = id
        self.name = name
        self.type = type
        self.primarySource = primarySource
        self.notes = notes
        self.isDefault = isDefault
        self.lastUpdated = lastUpdated
    }
}

/// One stored rate: `rate` units of `quote` per one `base`, valid as of `asOf`.
public struct RateRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var profileId: Int64
    public var base: String
    public var quote: String
    /// Decimal string, never a JSON number.
    public var rate: String
    public var inverseRate: String
    public var source: String
    public var asOf: String
    public var confidence: RateConfidence
    /// A user's rate that takes precedence over fetched ones for the same pair (either direction).
    public var customOverride: Bool
    /// When the override was ended (`rates.override.end`); from then on the feed's rates apply.
    public var overrideEndedAt: String?
    /// When its source last delivered it again; its age counts from the newer of this and `asOf`.
    public var confirmedAt: String?
    /// Which of its moment's values from its source this is (0 the first, 1, 2, … the source's
    /// corrections, D402). Sent by `rates.export` only, so `rates.restore` can tell a correction
    /// back to an earlier value from the same row restored twice; absent in older exports.
    public var revision: Int64?
    /// Age when the reply was made, and whether that is past the staleness limit (list replies).
    public var ageSeconds: Int64?
    public var stale: Bool?

    public init(id: Int64, profileId: Int64, base: String, quote: String, rate: String, inverseRate: String, source: String, asOf: String, confidence: RateConfidence, customOverride: Bool, overrideEndedAt: String? = nil, confirmedAt: String? = nil, ageSeconds: Int64? = nil, stale: Bool? = nil) {
        self.id = id
        self.profileId = profileId
        self.base = base
        self.quote = quote
        self.rate = rate
        self.inverseRate = inverseRate
        self.source = source
        self.asOf = asOf
        self.confidence = confidence
        self.customOverride = customOverride
        self.overrideEndedAt = overrideEndedAt
        self.confirmedAt = confirmedAt
        self.ageSeconds = ageSeconds
        self.stale = stale
    }
}

public enum RateConfidence: String, Codable, CaseIterable, Sendable {
    case manual, fetched
}

/// `rates.profile.list`
public struct RateProfileListRequest: ReadRequest, Hashable {
    public typealias Reply = RateProfileListReply
    public static let messageType: MessageType = "rates.profile.list"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public init() {}
}

public struct RateProfileListReply: Codable, Hashable, Sendable {
    public var profiles: [RateProfileRecord]
    public init(profiles: [RateProfileRecord]) { self.profiles = profiles }
}

/// `rates.profile.create`
public struct RateProfileCreateRequest: WriteRequest, Hashable {
    public typealias Reply = RateProfileRecord
    public static let messageType: MessageType = "rates.profile.create"
    public var name: String
    public var type: ExchangeMode
    public var primarySource: String?
    public var notes: String?

    public init(name: String, type: ExchangeMode, primarySource: String? = nil, notes: String? = nil) {
        self.name = name
        self.type = type
        self.primarySource = primarySource
        self.notes = notes
    }
}

/// `rates.profile.use`: makes a profile the default of its type and switches the exchange mode to it.
public struct RateProfileUseRequest: WriteRequest, Hashable {
    public typealias Reply = RateProfileRecord
    public static let messageType: MessageType = "rates.profile.use"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `rates.set`: a manual rate. Far from the last known rate (more than 50 %) it is stored with a warning.
public struct RateSetRequest: WriteRequest, Hashable {
    public typealias Reply = RateSetReply
    public static let messageType: MessageType = "rates.set"
    public var base: String
    public var quote: String
    /// Positive decimal string: units of `quote` per one `base`.
    public var rate: String
    /// Defaults to the active profile (the exchange mode's default profile).
    public var profileId: Int64?
    /// ISO 8601; defaults to now.
    public var asOf: String?
    /// Take precedence over fetched rates for this pair. Defaults to false.
    public var customOverride: Bool?

    public init(base: String, quote: String, rate: String, profileId: Int64? = nil, asOf: String? = nil, customOverride: Bool? = nil) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.profileId = profileId
        self.asOf = asOf
        self.customOverride = customOverride
    }
}

public struct RateSetReply: Codable, Hashable, Sendable {
    public var rate: RateRecord
    /// Set when the new rate differs from the last known one by more than 50 %.
    public var warning: String?
    public init(rate: RateRecord, warning: String?) {
        self.rate = rate
        self.warning = warning
    }
}

/// `rates.list`: the newest rate of every pair in a profile, with its age and staleness.
public struct RateListRequest: ReadRequest, Hashable {
    public typealias Reply = RateListReply
    public static let messageType: MessageType = "rates.list"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var profileId: Int64?
    public init(profileId: Int64? = nil) { self.profileId = profileId }
}

public struct RateListReply: Codable, Hashable, Sendable {
    public var profile: RateProfileRecord
    public var rates: [RateRecord]
    public init(profile: RateProfileRecord, rates: [RateRecord]) {
        self.profile = profile
        self.rates = rates
    }
}

/// `rates.history`: one pair's rates, newest first.
public struct RateHistoryRequest: ReadRequest, Hashable {
    public typealias Reply = RateHistoryReply
    public static let messageType: MessageType = "rates.history"
    public var base: String
    public var quote: String
    public var profileId: Int64?
    /// 1...10000, default 100.
    public var limit: Int?

    public init(base: String, quote: String, profileId: Int64? = nil, limit: Int? = nil) {
        self.base = base
        self.quote = quote
        self.profileId = profileId
        self.limit = limit
    }
}

public struct RateHistoryReply: Codable, Hashable, Sendable {
    public var rates: [RateRecord]
    public init(rates: [RateRecord]) { self.rates = rates }
}

/// One rate in a batch, as a provider gave it.
public struct RateInput: Codable, Hashable, Sendable {
    public var base: String
    public var quote: String
    public var rate: String
    public var asOf: String

    public init(base: String, quote: String, rate: String, asOf: String) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.asOf = asOf
    }
}

/// `rates.batch`: fetched rates stored in one SQL transaction (all or nothing). A rate already
/// stored for the same pair, moment and source is not stored twice: the same value is
/// *confirmed* (its `confirmedAt` moves to now; its age still counts from its moment, D401); a
/// different value for the same moment is a *correction*, kept as a new row beside the first,
/// which stays in the history (D402). Snapshots already taken keep the rate they used.
public struct RateBatchRequest: WriteRequest, Hashable {
    public typealias Reply = RateBatchReply
    public static let messageType: MessageType = "rates.batch"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var profileId: Int64
    public var source: String
    /// 1...10000 rates.
    public var rates: [RateInput]
    /// Accepted for older senders and no longer changes anything: every source's changed value
    /// for a moment is kept as a correction beside the first (`corrected`, D402).
    public var corrections: Bool?

    public init(profileId: Int64, source: String, rates: [RateInput], corrections: Bool? = nil) {
        self.profileId = profileId
        self.source = source
        self.rates = rates
        self.corrections = corrections
    }
}

public struct RateBatchReply: Codable, Hashable, Sendable {
    /// New rates.
    public var stored: Int
    /// Rates already stored with the same value (the newest of each pair is confirmed as current).
    public var confirmed: Int
    /// Always 0 since corrections are kept (D402); kept for older readers.
    public var skipped: Int
    /// Transactions whose missing base amount these rates filled in.
    public var backfilled: Int
    /// Rates whose source changed its value for a moment already stored (a same-day correction):
    /// kept as a new row beside the first, which stays in the history (D402).
    public var corrected: Int

    public init(stored: Int, confirmed: Int, skipped: Int, backfilled: Int, corrected: Int = 0) {
        self.stored = stored
        self.confirmed = confirmed
        self.skipped = skipped
        self.backfilled = backfilled
        self.corrected = corrected
    }

    private enum CodingKeys: String, CodingKey { case stored, confirmed, skipped, backfilled, corrected }

    /// `corrected` may be absent (a reply from a store older than D402): none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(stored: try container.decode(Int.self, forKey: .stored), confirmed: try container.decode(Int.self, forKey: .confirmed),
                  skipped: try container.decode(Int.self, forKey: .skipped), backfilled: try container.decode(Int.self, forKey: .backfilled),
                  corrected: try container.decodeIfPresent(Int.self, forKey: .corrected) ?? 0)
    }
}

/// `rates.export`: every stored rate of every profile, by id, a page at a time (for
/// `ledgerly export json`).
public struct RateExportRequest: ReadRequest, Hashable {
    public typealias Reply = RateExportReply
    public static let messageType: MessageType = "rates.export"
    public static let maximumLimit = 10_000
    /// Rates after this id; omitted for the first page.
    public var afterId: Int64?
    /// 1...10000, default 5000.
    public var limit: Int?

    public init(afterId: Int64? = nil, limit: Int? = nil) {
        self.afterId = afterId
        self.limit = limit
    }
}

public struct RateExportReply: Codable, Hashable, Sendable {
    /// Oldest id first; without `ageSeconds` and `stale` (they depend on when they are read).
    public var rates: [RateRecord]
    /// Where the next page starts; nil on the last page.
    public var nextAfterId: Int64?

    public init(rates: [RateRecord], nextAfterId: Int64?) {
        self.rates = rates
        self.nextAfterId = nextAfterId
    }
}

/// `rates.restore`: an export's rate history put back as it was (value, source, moment,
/// confidence, override and its end, last confirmation), in one SQL transaction. A rate the
/// ledger already has for the same profile, pair, moment and source is left as it is. Unlike
/// `rates.batch` it neither confirms rates nor fills in missing base amounts: a restore keeps
/// what the export had. Rate ids are not kept (nothing refers to them).
public struct RateRestoreRequest: WriteRequest, Hashable {
    public typealias Reply = RateRestoreReply
    public static let messageType: MessageType = "rates.restore"
    public static let maximumRates = 10_000
    /// 1...10000 rates; their `id`, `ageSeconds` and `stale` are ignored.
    public var rates: [RateRecord]

    public init(rates: [RateRecord]) { self.rates = rates }
}

public struct RateRestoreReply: Codable, Hashable, Sendable {
    public var stored: Int
    /// Already in the ledger: same profile, pair, moment, source, value and revision (without a
    /// revision, the same value as the moment's newest revision, D470).
    public var skipped: Int

    public init(stored: Int, skipped: Int) {
        self.stored = stored
        self.skipped = skipped
    }
}

/// `rates.override.end`: ends the user's override for a pair (both directions) in a profile, so
/// the feed's rates apply again from now on. Conversions at earlier moments still see the override.
public struct RateOverrideEndRequest: WriteRequest, Hashable {
    public typealias Reply = RateOverrideEndReply
    public static let messageType: MessageType = "rates.override.end"
    public var base: String
    public var quote: String
    /// Defaults to the active profile.
    public var profileId: Int64?

    public init(base: String, quote: String, profileId: Int64? = nil) {
        self.base = base
        self.quote = quote
        self.profileId = profileId
    }
}

public struct RateOverrideEndReply: Codable, Hashable, Sendable {
    /// The overrides ended (none is a `not_found` error instead).
    public var ended: [RateRecord]
    public init(ended: [RateRecord]) { self.ended = ended }
}

/// The rate a conversion used, kept with a transaction so its amounts never change later.
public struct RateSnapshot: Codable, Hashable, Sendable {
    public var base: String
    public var quote: String
    /// The rate applied (the product of the legs for a cross rate).
    public var rate: String
    /// The profile it came from; nil for a per-transaction override.
    public var profileId: Int64?
    public var profileName: String?
    /// "ecb", "manual", "override", or sources joined with "+" for a cross rate.
    public var source: String
    /// The oldest rate's time.
    public var asOf: String
    /// A one-off rate given with the transaction; shared rates were not touched.
    public var override: Bool
    /// Whether the rate was past its staleness limit when it was used.
    public var stale: Bool
    /// The stored rates the conversion went through, each used directly or inverted: what an
    /// edited amount is converted with again, exactly. Absent for a one-off override.
    public var legs: [RateSnapshotLeg]?

    public init(base: String, quote: String, rate: String, profileId: Int64?, profileName: String?, source: String, asOf: String, override: Bool, stale: Bool, legs: [RateSnapshotLeg]? = nil) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.profileId = profileId
        self.profileName = profileName
        self.source = source
        self.asOf = asOf
        self.override = override
        self.stale = stale
        self.legs = legs
    }
}

/// One stored rate a conversion used: `rate` units of `quote` per `base`, divided by when `inverted`.
public struct RateSnapshotLeg: Codable, Hashable, Sendable {
    public var base: String
    public var quote: String
    public var rate: String
    public var inverted: Bool

    public init(base: String, quote: String, rate: String, inverted: Bool) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.inverted = inverted
    }
}

/// `convert`: converts an amount with stored rates and records it in the conversion history.
public struct ConvertRequest: WriteRequest, Hashable {
    public typealias Reply = ConversionRecord
    public static let messageType: MessageType = "convert"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var amount: String
    public var from: String
    /// Defaults to the base currency.
    public var to: String?
    /// Defaults to the exchange mode in settings.
    public var mode: ExchangeMode?
    /// Use this profile instead of the mode's default.
    public var profileId: Int64?
    /// "YYYY-MM-DD" or ISO 8601: convert with the rate in force then. Defaults to now.
    public var at: String?
    /// A preview (the setup flow's): converted and answered, not kept in the history. Default false.
    public var preview: Bool?

    public init(amount: String, from: String, to: String? = nil, mode: ExchangeMode? = nil, profileId: Int64? = nil, at: String? = nil, preview: Bool? = nil) {
        self.amount = amount
        self.from = from
        self.to = to
        self.mode = mode
        self.profileId = profileId
        self.at = at
        self.preview = preview
    }
}

public struct ConversionRecord: Codable, Hashable, Sendable {
    /// 0 for a preview, which is not kept.
    public var id: Int64
    public var amount: String
    public var from: String
    public var result: String
    public var to: String
    public var snapshot: RateSnapshot
    /// Set when a rate used was past its staleness limit: "rate 3 h old".
    public var warning: String?
    public var createdAt: String

    public init(id: Int64, amount: String, from: String, result: String, to: String, snapshot: RateSnapshot, warning: String?, createdAt: String) {
        self.id = id
        self.amount = amount
        self.from = from
        self.result = result
        self.to = to
        self.snapshot = snapshot
        self.warning = warning
        self.createdAt = createdAt
    }
}

/// `convert.history`: past conversions, newest first.
public struct ConversionHistoryRequest: ReadRequest, Hashable {
    public typealias Reply = ConversionHistoryReply
    public static let messageType: MessageType = "convert.history"
    /// 1...1000, default 20.
    public var limit: Int?
    /// Pages forward: the oldest conversions after this id, oldest first. Without it, the newest
    /// `limit`, newest first.
    public var afterId: Int64?

    public init(limit: Int? = nil, afterId: Int64? = nil) {
        self.limit = limit
        self.afterId = afterId
    }
}

public struct ConversionHistoryReply: Codable, Hashable, Sendable {
    public var conversions: [ConversionRecord]
    public init(conversions: [ConversionRecord]) { self.conversions = conversions }
}

/// `rates.refresh`, answered by `ledgerly-rates`: fetch every configured provider now and store
/// what they return for the currencies in use.
public struct RatesRefreshRequest: ReadRequest, Hashable {
    public typealias Reply = RatesRefreshReply
    public static let messageType: MessageType = "rates.refresh"
    public init() {}
}

public struct RatesRefreshReply: Codable, Hashable, Sendable {
    public var providers: [ProviderRefreshResult]
    /// Why no provider was asked at all: setup is not complete, or the exchange mode is manual
    /// (D400). Then `providers` is empty. Absent when the providers were asked.
    public var notFetched: String?

    public init(providers: [ProviderRefreshResult], notFetched: String? = nil) {
        self.providers = providers
        self.notFetched = notFetched
    }
}

/// What one provider's refresh did.
public struct ProviderRefreshResult: Codable, Hashable, Sendable {
    public var name: String
    public var profile: String
    /// Rates newly stored, rates the store already had (now confirmed), and rates it had with
    /// another value for the same moment (always 0 since D402: see `corrected`).
    public var stored: Int
    public var confirmed: Int
    public var skipped: Int
    /// Rates the provider changed for a moment already stored, kept as corrections (D402).
    public var corrected: Int
    /// Why nothing was stored, when the fetch or the document failed ("HTTP 429", "not ECB XML…").
    public var error: String?
    public var finishedAt: String
    /// When the provider will be asked next (after a failure: the backoff).
    public var nextAttemptAt: String?
    /// A provider with a daily request quota (Alpha Vantage's prices): requests spent today
    /// (UTC) and the quota. Absent for the others.
    public var requestsUsed: Int?
    public var requestQuota: Int?

    public init(name: String, profile: String, stored: Int, confirmed: Int, skipped: Int, error: String?, finishedAt: String, nextAttemptAt: String?,
                requestsUsed: Int? = nil, requestQuota: Int? = nil, corrected: Int = 0) {
        self.name = name
        self.profile = profile
        self.stored = stored
        self.confirmed = confirmed
        self.skipped = skipped
        self.corrected = corrected
        self.error = error
        self.finishedAt = finishedAt
        self.nextAttemptAt = nextAttemptAt
        self.requestsUsed = requestsUsed
        self.requestQuota = requestQuota
    }

    private enum CodingKeys: String, CodingKey { case name, profile, stored, confirmed, skipped, corrected, error, finishedAt, nextAttemptAt, requestsUsed, requestQuota }

    /// `corrected` may be absent (a rates service older than D402): none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name), profile: try container.decode(String.self, forKey: .profile),
            stored: try container.decode(Int.self, forKey: .stored), confirmed: try container.decode(Int.self, forKey: .confirmed),
            skipped: try container.decode(Int.self, forKey: .skipped), error: try container.decodeIfPresent(String.self, forKey: .error),
            finishedAt: try container.decode(String.self, forKey: .finishedAt), nextAttemptAt: try container.decodeIfPresent(String.self, forKey: .nextAttemptAt),
            requestsUsed: try container.decodeIfPresent(Int.self, forKey: .requestsUsed), requestQuota: try container.decodeIfPresent(Int.self, forKey: .requestQuota),
            corrected: try container.decodeIfPresent(Int.self, forKey: .corrected) ?? 0)
    }
}

/// `rates.waiting`: the transactions whose base amount still waits for an exchange rate, per
/// wallet currency, with the earliest day that lacks a rate, so a client can say exactly which
/// rate to set (`rates.set` with `asOf` on or before `earliestDate`) instead of a vague hint.
public struct RatesWaitingRequest: ReadRequest, Hashable {
    public typealias Reply = RatesWaitingReply
    public static let messageType: MessageType = "rates.waiting"
    public init() {}
}

public struct RatesWaitingReply: Codable, Hashable, Sendable {
    /// Nil before setup.
    public var baseCurrency: String?
    /// The active profile, whose rates fill the base amounts.
    public var profile: String
    /// One entry per wallet currency with waiting transactions, by currency code.
    public var pairs: [WaitingPair]
    public init(baseCurrency: String?, profile: String, pairs: [WaitingPair]) {
        self.baseCurrency = baseCurrency
        self.profile = profile
        self.pairs = pairs
    }
}

/// Transactions in wallets of one currency waiting for a rate to the base currency.
public struct WaitingPair: Codable, Hashable, Sendable {
    /// The wallets' currency.
    public var from: String
    /// The base currency.
    public var to: String
    public var count: Int
    /// "YYYY-MM-DD": the oldest waiting transaction's date; a rate in force at the end of that
    /// day (or earlier) is needed to fill it.
    public var earliestDate: String
    /// "YYYY-MM-DD": the newest waiting transaction's date.
    public var latestDate: String
    public init(from: String, to: String, count: Int, earliestDate: String, latestDate: String) {
        self.from = from
        self.to = to
        self.count = count
        self.earliestDate = earliestDate
        self.latestDate = latestDate
    }
}
