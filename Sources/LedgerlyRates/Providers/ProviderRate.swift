import LedgerlyCore

/// One rate read from a provider's document, before it becomes a stored rate.
///
/// Every parser in this folder returns these and nothing else, so the rates service has one
/// shape to validate, batch and write whatever the source. The codes are already normalized
/// (`Currency(code:)`: letters only, upper-cased) and the rate is already an `ExchangeRate`, so a
/// value that exists is a value that passed every check; there is no "raw" form to forget to check.
public struct ProviderRate: Sendable, Hashable, CustomStringConvertible {
    /// The currency (or coin symbol) one unit of which the rate prices, e.g. "EUR" for the ECB.
    public let base: String
    /// The currency the price is in.
    public let quote: String
    /// Units of `quote` per 1 `base`, exact (never binary floating point).
    public let rate: ExchangeRate
    /// The day the rate is a reference rate for, when the format says (the ECB's `time`,
    /// Frankfurter's `date`, or the UTC day of a Unix timestamp). `nil` when the document gives
    /// no day (a drop-folder line without a date); the caller decides what "now" means.
    public let date: LedgerDate?
    /// The moment of the quote as ISO 8601 UTC ("2026-10-30T16:00:00Z") when the format gives one
    /// (open-exchange-rates' `timestamp`, CoinGecko's `last_updated_at`). Kept as text because it
    /// is only recorded and compared, never computed with.
    public let timestamp: String?

    public init(base: String, quote: String, rate: ExchangeRate, date: LedgerDate? = nil, timestamp: String? = nil) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.date = date
        self.timestamp = timestamp
    }

    /// "EUR/USD 1.1172 on 2026-10-30": what a log line or test failure should show.
    public var description: String {
        var text = "\(base)/\(quote) \(rate.decimalString)"
        if let date { text += " on \(date)" }
        if let timestamp { text += " at \(timestamp)" }
        return text
    }
}
