import FoundationEssentials

/// One known rate: for a pair, as of a moment, from a source, in a profile.
public struct RateQuote: Hashable, Sendable {
    public enum Confidence: String, Sendable, Codable {
        /// Typed by the user.
        case manual
        /// Read from a provider.
        case fetched
    }

    public let pair: CurrencyPair
    public let rate: ExchangeRate
    /// 1 / `rate`, computed once (a 38-digit division is most of an inverted conversion's cost).
    public let inverseRate: ExchangeRate
    /// When the rate was valid (a provider's reference time, or when the user entered it).
    public let asOf: Date
    /// Where it came from: "ecb", "frankfurter", "coingecko", "dropfolder", "manual".
    public let source: String
    public let confidence: Confidence
    /// When its source last said this is still the rate (a daily feed re-delivering today's
    /// reference rate). Shown, never counted in its age: a feed that keeps serving a rate dated
    /// ten days ago is a stuck feed, and the rate is ten days old (D401).
    public let confirmedAt: Date?
    /// The user's rate for this pair, taking precedence over fetched ones (in either direction)
    /// until the user ends it.
    public let isOverride: Bool

    /// `inverseRate` defaults to `rate.inverse`; the store passes the inverse it keeps.
    public init(pair: CurrencyPair, rate: ExchangeRate, inverseRate: ExchangeRate? = nil, asOf: Date, source: String, confidence: Confidence, confirmedAt: Date? = nil, isOverride: Bool = false) {
        self.pair = pair
        self.rate = rate
        self.inverseRate = inverseRate ?? rate.inverse
        self.asOf = asOf
        self.source = source
        self.confidence = confidence
        self.confirmedAt = confirmedAt
        self.isOverride = isOverride
    }
}
