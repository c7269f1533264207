import FoundationEssentials

/// The result of converting an amount: what was converted, what it became, and exactly which
/// stored rates made it (the snapshot a transaction keeps).
public struct Conversion: Hashable, Sendable {
    public let source: Money
    public let result: Money
    /// The rate applied: the product of the legs' rates (1 for the same currency).
    public let rate: ExchangeRate
    /// Empty for the same currency; one leg for a direct or inverted rate; two through a pivot.
    public let legs: [RateLeg]

    /// The oldest moment among the legs: the conversion is as old as its oldest rate.
    public var asOf: Date? { legs.map(\.quote.asOf).min() }
}
