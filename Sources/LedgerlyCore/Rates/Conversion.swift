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

    /// Another amount in the source's currency through the same legs, with the same arithmetic
    /// (`CurrencyConverter.apply`): what `CurrencyConverter.convert` gives for it at the same
    /// moment, without finding the legs again.
    public func applied(to money: Money) throws(ConversionError) -> Conversion {
        precondition(money.currency == source.currency, "a conversion's legs start from \(source.currency.code), not \(money.currency.code)")
        let converted = try CurrencyConverter.apply(legs: legs.map { ($0.quote.rate, $0.inverted) }, to: money, target: result.currency)
        return Conversion(source: money, result: converted, rate: rate, legs: legs)
    }
}
