/// An ordered pair of currency codes: a rate for it says how many `quote` one `base` is worth.
public struct CurrencyPair: Hashable, Sendable, CustomStringConvertible {
    public let base: String
    public let quote: String

    public init(_ base: String, _ quote: String) {
        self.base = base
        self.quote = quote
    }

    public var inverted: CurrencyPair { CurrencyPair(quote, base) }
    public var description: String { "\(base)→\(quote)" }
}
