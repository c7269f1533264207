import LedgerlyCore

/// One rate from a dropped file, as the store takes it.
public struct DropFolderRate: Sendable, Hashable, CustomStringConvertible {
    /// The currency one unit of which the rate prices.
    public let base: String
    /// The currency the price is in.
    public let quote: String
    /// Units of `quote` per 1 `base`.
    public let rate: ExchangeRate
    /// The moment the rate is for: the line's date ("2026-11-20"), or for a line without one the
    /// file's modification time in ISO 8601 UTC with milliseconds, so that the same file always
    /// gives the same moments.
    public let asOf: String

    public init(base: String, quote: String, rate: ExchangeRate, asOf: String) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.asOf = asOf
    }

    /// "USD/ARS 1185.5 as of 2026-11-20": what a log line or a test failure should show.
    public var description: String { "\(base)/\(quote) \(rate.decimalString) as of \(asOf)" }
}
