// `_NSDecimalRound`, the rounding behind Foundation's `NSDecimalRound` (D380).
@_spi(SwiftCorelibsFoundation) import FoundationEssentials

/// Converts amounts with the rates of one profile: directly, through an inverted rate, or
/// across a pivot currency (the user's base currency, or a feed's own base such as EUR for
/// the ECB), using the rate in force at a given moment.
///
/// Arithmetic is exact decimal with one rounding: the amount in minor units (times a power of ten
/// for the exponents) is multiplied by the rates of direct legs and divided by the stored rates of
/// inverted legs, and only that quotient is rounded, half to even, to the target's minor unit. An
/// inverse is never rounded first (18 ARS at 1200 ARS per USD is exactly 0.015 → 0.02 USD).
/// Amounts have at most 16 digits and provider rates at most 10, so the product stays within
/// `Decimal`'s 38 digits, and a tie (a quotient ending in exactly ½) is always seen as one.
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
        return Conversion(source: money, result: try Self.apply(legs: legs.map { ($0.quote.rate, $0.inverted) }, to: money, target: target), rate: rate, legs: legs)
    }

    /// `money` through `legs` (each a stored rate, used directly or inverted) in `target`:
    /// one exact quotient, rounded half to even once.
    public static func apply(legs: [(rate: ExchangeRate, inverted: Bool)], to money: Money, target: Currency) throws(ConversionError) -> Money {
        if let exact = integerQuotient(legs: legs, money: money, target: target) { return exact }
        var numerator = Decimal(money.minorUnits) * Decimal(sign: .plus, exponent: target.exponent - money.currency.exponent, significand: 1)
        var denominator: Decimal?
        for leg in legs {
            if leg.inverted { denominator = (denominator ?? 1) * leg.rate.value } else { numerator *= leg.rate.value }
        }
        // A 38-digit division costs more than the rest; most conversions have nothing to divide by.
        return try rounded(denominator.map { numerator / $0 } ?? numerator, money: money, target: target)
    }

    /// The same quotient in 128-bit integers, when every number fits: the amount times the
    /// direct legs' significands over the inverted legs' significands, with the powers of ten on
    /// whichever side keeps them whole; nil when anything would not fit (or the result is not
    /// an amount the ledger holds), and `Decimal` decides. Why: `Decimal`'s arithmetic was 10 %
    /// of the store's work per transaction in a load (D357). Both are exact where both apply;
    /// `CurrencyConverterIntegerPathTests` checks that they agree.
    static func integerQuotient(legs: [(rate: ExchangeRate, inverted: Bool)], money: Money, target: Currency) -> Money? {
        var numerator = Int128(money.minorUnits.magnitude)
        var denominator: Int128 = 1
        var exponent = target.exponent - money.currency.exponent
        for leg in legs {
            guard let form = leg.rate.integerForm else { return nil }
            if leg.inverted {
                guard let product = checked(denominator, times: Int128(form.significand)) else { return nil }
                denominator = product
                exponent -= form.exponent
            } else {
                guard let product = checked(numerator, times: Int128(form.significand)) else { return nil }
                numerator = product
                exponent += form.exponent
            }
        }
        guard exponent.magnitude <= 36, let scale = checked(1, times: power(of: exponent.magnitude)) else { return nil }
        if exponent >= 0 {
            guard let scaled = checked(numerator, times: scale) else { return nil }
            numerator = scaled
        } else {
            guard let scaled = checked(denominator, times: scale) else { return nil }
            denominator = scaled
        }
        var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        // Half to even: up past the half, and at exactly the half when the quotient is odd.
        if remainder > denominator - remainder || (remainder == denominator - remainder && quotient % 2 == 1) { quotient += 1 }
        guard quotient < Int128(Money.maximumMinorUnits) else { return nil }
        let minorUnits = Int64(quotient)
        return Money(minorUnits: money.minorUnits < 0 ? -minorUnits : minorUnits, currency: target)
    }

    /// Products are kept below 10³⁷, so a sum of two never overflows either.
    private static func checked(_ lhs: Int128, times rhs: Int128) -> Int128? {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow || product >= limit ? nil : product
    }

    private static let limit: Int128 = power(of: 37)

    private static func power(of exponent: UInt) -> Int128 {
        var value: Int128 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `money` × `rate` in `target`, rounded half to even to the target's minor unit.
    public static func apply(_ rate: ExchangeRate, to money: Money, target: Currency) throws(ConversionError) -> Money {
        try apply(legs: [(rate, false)], to: money, target: target)
    }

    private static func rounded(_ exact: Decimal, money: Money, target: Currency) throws(ConversionError) -> Money {
        var value = exact
        var rounded = Decimal()
        _NSDecimalRound(&rounded, &value, 0, .bankers)
        // `Decimal` prints whole numbers as plain digits; anything beyond Int64 does not parse.
        // A result must be an amount the ledger accepts: below `Money.maximumMinorUnits`.
        guard let minorUnits = Int64(rounded.description), minorUnits.magnitude < Money.maximumMinorUnits.magnitude else {
            throw .resultTooLarge(amount: money.description, to: target.code)
        }
        return Money(minorUnits: minorUnits, currency: target)
    }
}
