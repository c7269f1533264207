import Foundation

/// Converts amounts with the rates of one profile: directly, through an inverted rate, or
/// across a pivot currency (the user's base currency, or a feed's own base such as EUR for
/// the ECB), using the rate in force at a given moment.
///
/// Arithmetic is exact decimal: the amount in minor units times the rate (times a power of ten
/// for the exponents) is rounded once, half to even, to the target currency's minor unit.
/// Rates from providers have at most 10 significant digits and amounts at most 16, so products
/// stay within `Decimal`'s 38 digits and nothing is rounded before the final step.
public struct CurrencyConverter: Sendable {
    public let book: RateBook
    /// Currencies to try as intermediates, in order.
    public let pivots: [String]

    public init(book: RateBook, pivots: [String]) {
        self.book = book
        self.pivots = pivots.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The legs from `from` to `to` at `moment`: none for the same currency, one for a direct or
    /// inverted rate, two through the first pivot that connects them.
    public func path(from: String, to: String, at moment: Date? = nil) throws(ConversionError) -> [RateLeg] {
        if from == to { return [] }
        if let leg = book.leg(from: from, to: to, at: moment) { return [leg] }
        for pivot in pivots where pivot != from && pivot != to {
            if let first = book.leg(from: from, to: pivot, at: moment), let second = book.leg(from: pivot, to: to, at: moment) {
                return [first, second]
            }
        }
        throw .missingRate(from: from, to: to)
    }

    public func convert(_ money: Money, to target: Currency, at moment: Date? = nil) throws(ConversionError) -> Conversion {
        let legs = try path(from: money.currency.code, to: target.code, at: moment)
        let rate = legs.dropFirst().reduce(legs.first?.rate ?? ExchangeRate.one) { $0.then($1.rate) }
        return Conversion(source: money, result: try Self.apply(rate, to: money, target: target), rate: rate, legs: legs)
    }

    /// `money` × `rate` in `target`, rounded half to even to the target's minor unit.
    public static func apply(_ rate: ExchangeRate, to money: Money, target: Currency) throws(ConversionError) -> Money {
        var value = Decimal(money.minorUnits) * rate.value * Decimal(sign: .plus, exponent: target.exponent - money.currency.exponent, significand: 1)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .bankers)
        // `Decimal` prints whole numbers as plain digits; anything beyond Int64 does not parse.
        guard let minorUnits = Int64(rounded.description) else {
            throw .resultTooLarge(amount: money.description, to: target.code)
        }
        return Money(minorUnits: minorUnits, currency: target)
    }
}
