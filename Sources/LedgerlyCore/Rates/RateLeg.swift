/// One step of a conversion path: a stored quote, used as is or inverted.
public struct RateLeg: Hashable, Sendable {
    public let quote: RateQuote
    /// True when the quote is for the opposite pair and its inverse was used.
    public let inverted: Bool

    public init(quote: RateQuote, inverted: Bool) {
        self.quote = quote
        self.inverted = inverted
    }

    public var pair: CurrencyPair { inverted ? quote.pair.inverted : quote.pair }
    public var rate: ExchangeRate { inverted ? quote.inverseRate : quote.rate }
}
