import Foundation
import LedgerlyCore
import Testing

/// `CurrencyConverter.apply` works in 128-bit integers when the numbers fit (D357). The rule did
/// not change (one exact quotient, rounded half to even once): the `Decimal` arithmetic it used
/// before is kept here as the oracle, and both must give the same amount on every conversion a
/// ledger meets (amounts up to 15 digits, provider rates up to 10, one or two legs, each direct
/// or inverted, between currencies of 0 to 8 decimals).
@Suite struct CurrencyConverterIntegerPathTests {
    @Test func givesWhatDecimalArithmeticGaveOnGeneratedConversions() throws {
        var generator = SeededGenerator(seed: 3542)
        let currencies = try ["EUR", "JPY", "BHD", "BTC", "USD"].map { try Currency(code: $0) }
        for _ in 0..<40_000 {
            let source = currencies[Int(generator.next() % UInt64(currencies.count))]
            let target = currencies[Int(generator.next() % UInt64(currencies.count))]
            let digits = 1 + Int(generator.next() % 15)
            var minor = Int64(generator.next() % UInt64(pow(10, Double(digits))))
            if generator.next() % 4 == 0 { minor = -minor }
            let money = Money(minorUnits: minor, currency: source)
            let legs = try (0..<(1 + Int(generator.next() % 2))).map { _ in (rate: try rate(&generator), inverted: generator.next() % 2 == 0) }
            let expected = outcome { () throws(ConversionError) in try Self.decimalApply(legs: legs, to: money, target: target) }
            let actual = outcome { () throws(ConversionError) in try CurrencyConverter.apply(legs: legs, to: money, target: target) }
            #expect(actual == expected, "\(money) through \(legs.map { "\($0.rate)\($0.inverted ? " inverted" : "")" }) to \(target.code)")
        }
    }

    @Test func roundsExactHalvesToEven() throws {
        let eur = try Currency(code: "EUR"), usd = try Currency(code: "USD")
        // 0.25 × 0.5 = 0.125 → 0.12; 0.35 × 0.5 = 0.175 → 0.18; 18 / 1200 × 100 = 1.5 → 2 (cents).
        #expect(try CurrencyConverter.apply(ExchangeRate(parsing: "0.5"), to: Money(minorUnits: 25, currency: eur), target: usd).minorUnits == 12)
        #expect(try CurrencyConverter.apply(ExchangeRate(parsing: "0.5"), to: Money(minorUnits: 35, currency: eur), target: usd).minorUnits == 18)
        #expect(try CurrencyConverter.apply(legs: [(ExchangeRate(parsing: "1200"), true)], to: Money(minorUnits: 1800, currency: eur), target: usd).minorUnits == 2)
        #expect(try CurrencyConverter.apply(ExchangeRate(parsing: "0.5"), to: Money(minorUnits: -35, currency: eur), target: usd).minorUnits == -18)
    }

    private func rate(_ generator: inout SeededGenerator) throws -> ExchangeRate {
        let digits = 1 + Int(generator.next() % 10)
        let significand = 1 + generator.next() % UInt64(pow(10, Double(digits)) - 1)
        let decimals = Int(generator.next() % 13)
        var text = String(significand)
        if decimals > 0 {
            text = String(repeating: "0", count: max(0, decimals + 1 - text.count)) + text
            text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        }
        return try ExchangeRate(parsing: text)
    }

    private func outcome(_ apply: () throws(ConversionError) -> Money) -> Result<Money, ConversionError> {
        do { return .success(try apply()) } catch { return .failure(error) }
    }

    /// `CurrencyConverter.apply(legs:to:target:)` before D357: `Decimal` throughout.
    static func decimalApply(legs: [(rate: ExchangeRate, inverted: Bool)], to money: Money, target: Currency) throws(ConversionError) -> Money {
        var numerator = Decimal(money.minorUnits) * Decimal(sign: .plus, exponent: target.exponent - money.currency.exponent, significand: 1)
        var denominator: Decimal?
        for leg in legs {
            if leg.inverted { denominator = (denominator ?? 1) * leg.rate.value } else { numerator *= leg.rate.value }
        }
        var value = denominator.map { numerator / $0 } ?? numerator
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .bankers)
        guard let minorUnits = Int64(rounded.description), minorUnits.magnitude < Money.maximumMinorUnits.magnitude else {
            throw .resultTooLarge(amount: money.description, to: target.code)
        }
        return Money(minorUnits: minorUnits, currency: target)
    }
}
