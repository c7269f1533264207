import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `rates`: the one type that names the table's columns for reading, and the one place
/// a stored rate becomes its wire record (`record`) and the engine's quote (`quote`).
///
/// Writes stay in `RateHandlers`' cached INSERT: a provider batch or an ECB history import
/// stores tens of thousands of rates, one statement run per rate.
struct RateRow: FetchableRecord, Sendable {
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
