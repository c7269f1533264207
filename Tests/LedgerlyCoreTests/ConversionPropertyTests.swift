import Foundation
import LedgerlyCore
import Testing

/// Laws of the conversion engine, checked on thousands of generated cases (seeded, so a failure
/// reproduces). Rates are generated the way providers send them: a few significant digits.
@Suite struct ConversionPropertyTests {
    static let currencies = ["EUR", "USD", "JPY", "BHD", "CLF", "GBP", "KWD"].map { try! Currency(code: $0) }
    static let moment = Date(timeIntervalSince1970: 1_790_000_000)

    /// A rate `digits / 10^scale` with 1-6 significant digits, within the accepted range.
    static func rate(_ generator: inout SeededGenerator) -> (rate: ExchangeRate, digits: Int64, scale: Int) {
        while true {
            let digits = Int64.random(in: 1...999_999, using: &generator)
            let scale = Int.random(in: 0...10, using: &generator)
            let text = Money.format(minorUnits: digits, exponent: scale)
            if let rate = try? ExchangeRate(parsing: text) { return (rate, digits, scale) }
        }
    }

    static func quote(_ base: String, _ quote: String, _ rate: ExchangeRate, at date: Date = moment) -> RateQuote {
        RateQuote(pair: CurrencyPair(base, quote), rate: rate, asOf: date, source: "test", confidence: .manual)
    }

    static func powerOfTen(_ exponent: Int) -> Int128 { (0..<exponent).reduce(1) { value, _ in value * 10 } }

    /// round-half-even(numerator / denominator) in 128-bit integers: the reference the engine must match.
    static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int64 {
        let quotient = numerator.magnitude / denominator.magnitude
        let remainder = numerator.magnitude % denominator.magnitude
        var rounded = quotient
        if remainder * 2 > denominator.magnitude || (remainder * 2 == denominator.magnitude && quotient % 2 == 1) { rounded += 1 }
        return numerator < 0 ? -Int64(rounded) : Int64(rounded)
    }

    @Test func applyingARateMatchesExactIntegerArithmetic() throws {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<5_000 {
            let source = Self.currencies.randomElement(using: &generator)!
            let target = Self.currencies.randomElement(using: &generator)!
            let (rate, digits, scale) = Self.rate(&generator)
            // |minor| × digits × 10^4 < 10^17 and 10^10 × 10^4: the integer reference cannot overflow.
            let minor = Int64.random(in: -10_000_000...10_000_000, using: &generator)
            let shift = target.exponent - source.exponent
            let numerator = Int128(minor) * Int128(digits) * Self.powerOfTen(max(0, shift))
            let denominator = Self.powerOfTen(scale) * Self.powerOfTen(max(0, -shift))
            let expected = Self.halfEven(numerator, denominator)
            guard expected.magnitude < Money.maximumMinorUnits.magnitude else {
                // A result that is not an amount (10^15 minor units or more) is refused.
                #expect(throws: ConversionError.self) { try CurrencyConverter.apply(rate, to: Money(minorUnits: minor, currency: source), target: target) }
                continue
            }
            let result = try CurrencyConverter.apply(rate, to: Money(minorUnits: minor, currency: source), target: target)
            #expect(result.minorUnits == expected, "\(minor) \(source) × \(rate) → \(target)")
        }
    }

    @Test func halvesRoundToEven() throws {
        let eur = try Currency(code: "EUR")
        let jpy = try Currency(code: "JPY")
        // 1 yen at 0.005 EUR is 0.5 cent → 0; at 0.015 → 1.5 → 2; at 0.025 → 2.5 → 2.
        #expect(try CurrencyConverter.apply(try ExchangeRate(parsing: "0.005"), to: Money(minorUnits: 1, currency: jpy), target: eur).minorUnits == 0)
        #expect(try CurrencyConverter.apply(try ExchangeRate(parsing: "0.015"), to: Money(minorUnits: 1, currency: jpy), target: eur).minorUnits == 2)
        #expect(try CurrencyConverter.apply(try ExchangeRate(parsing: "0.025"), to: Money(minorUnits: 1, currency: jpy), target: eur).minorUnits == 2)
        #expect(try CurrencyConverter.apply(try ExchangeRate(parsing: "0.025"), to: Money(minorUnits: -1, currency: jpy), target: eur).minorUnits == -2)
    }

    @Test func aRoundTripComesBackWithinOneMinorUnitPlusTheOtherSidesRounding() throws {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<3_000 {
            let a = Self.currencies.randomElement(using: &generator)!
            let b = Self.currencies.randomElement(using: &generator)!
            let (rate, _, _) = Self.rate(&generator)
            let converter = CurrencyConverter(book: RateBook(quotes: [Self.quote(a.code, b.code, rate)]), pivots: [])
            let original = Money(minorUnits: Int64.random(in: -10_000_000...10_000_000, using: &generator), currency: a)
            guard a != b, let there = try? converter.convert(original, to: b), let back = try? converter.convert(there.result, to: a) else { continue }
            // Rounding at b loses at most half of b's minor unit, worth (1 / rate) of a's units.
            let minorOfBInA = Decimal(sign: .plus, exponent: a.exponent - b.exponent, significand: 1) / rate.value
            let bound = minorOfBInA + 1
            #expect(Decimal((back.result.minorUnits - original.minorUnits).magnitude) <= bound, "\(original) → \(there.result) → \(back.result) at \(rate)")
        }
    }

    @Test func anInvertedQuoteDividesExactlyWithOneRounding() throws {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<5_000 {
            let (rate, digits, scale) = Self.rate(&generator)
            let a = Self.currencies.randomElement(using: &generator)!
            let b = Self.currencies.randomElement(using: &generator)!
            guard a != b else { continue }
            // Only the rate b→a is stored; a→b divides by it.
            let converter = CurrencyConverter(book: RateBook(quotes: [Self.quote(b.code, a.code, rate)]), pivots: [])
            let minor = Int64.random(in: -10_000_000...10_000_000, using: &generator)
            let shift = b.exponent - a.exponent
            let expected = Self.halfEven(Int128(minor) * Self.powerOfTen(max(0, shift)) * Self.powerOfTen(scale), Int128(digits) * Self.powerOfTen(max(0, -shift)))
            guard expected.magnitude < Money.maximumMinorUnits.magnitude else {
                #expect(throws: ConversionError.self) { try converter.convert(Money(minorUnits: minor, currency: a), to: b) }
                continue
            }
            let converted = try converter.convert(Money(minorUnits: minor, currency: a), to: b)
            #expect(converted.legs.first?.inverted == true)
            #expect(converted.result.minorUnits == expected, "\(minor) \(a) at 1/\(rate) → \(b)")
        }
    }

    @Test func tiesThroughAnInvertedRateRoundToEven() throws {
        // 18 ARS at 1200 ARS per USD is exactly 0.015 USD → 0.02; 0.09 USD at 1.2 USD per EUR is 0.075 EUR → 0.08.
        let ars = CurrencyConverter(book: RateBook(quotes: [Self.quote("USD", "ARS", try ExchangeRate(parsing: "1200"))]), pivots: [])
        #expect(try ars.convert(Money(minorUnits: 1_800, currency: try Currency(code: "ARS")), to: try Currency(code: "USD")).result.minorUnits == 2)
        let usd = CurrencyConverter(book: RateBook(quotes: [Self.quote("EUR", "USD", try ExchangeRate(parsing: "1.2"))]), pivots: [])
        #expect(try usd.convert(Money(minorUnits: 9, currency: try Currency(code: "USD")), to: try Currency(code: "EUR")).result.minorUnits == 8)
        #expect(try usd.convert(Money(minorUnits: 3, currency: try Currency(code: "USD")), to: try Currency(code: "EUR")).result.minorUnits == 2)  // 0.025 → 0.02
    }

    @Test func throughAPivotWithAnInvertedLegIsExact() throws {
        var generator = SeededGenerator(seed: 5)
        let usd = try Currency(code: "USD"), jpy = try Currency(code: "JPY")
        for _ in 0..<5_000 {
            // The ECB's shape: EUR→USD and EUR→JPY stored; USD→JPY is ÷ EUR→USD × EUR→JPY.
            let (first, d1, s1) = Self.rate(&generator)
            let (second, d2, s2) = Self.rate(&generator)
            let converter = CurrencyConverter(book: RateBook(quotes: [Self.quote("EUR", "USD", first), Self.quote("EUR", "JPY", second)]), pivots: ["EUR"])
            let minor = Int64.random(in: -1_000_000...1_000_000, using: &generator)
            // minor × 10^-2 (cents → yen) × (d2 / 10^s2) / (d1 / 10^s1)
            let expected = Self.halfEven(Int128(minor) * Int128(d2) * Self.powerOfTen(s1), 100 * Self.powerOfTen(s2) * Int128(d1))
            guard expected.magnitude < Money.maximumMinorUnits.magnitude else {
                #expect(throws: ConversionError.self) { try converter.convert(Money(minorUnits: minor, currency: usd), to: jpy) }
                continue
            }
            let converted = try converter.convert(Money(minorUnits: minor, currency: usd), to: jpy)
            #expect(converted.legs.map(\.inverted) == [true, false])
            #expect(converted.result.minorUnits == expected, "\(minor) cents at ÷\(first) ×\(second)")
        }
    }

    /// A batch keeps one conversion per pair and moment and applies its legs to the other amounts
    /// (D382): that must give what converting each amount afresh gives, refusals included.
    @Test func aConversionAppliedToAnotherAmountEqualsConvertingIt() throws {
        var generator = SeededGenerator(seed: 6)
        var compared = 0
        for _ in 0..<3_000 {
            let (first, _, _) = Self.rate(&generator)
            let (second, _, _) = Self.rate(&generator)
            let converter = CurrencyConverter(book: RateBook(quotes: [Self.quote("EUR", "USD", first), Self.quote("JPY", "EUR", second)]), pivots: ["EUR"])
            let source = Self.currencies.filter { ["EUR", "USD", "JPY"].contains($0.code) }.randomElement(using: &generator)!
            let target = Self.currencies.filter { ["EUR", "USD", "JPY"].contains($0.code) && $0 != source }.randomElement(using: &generator)!
            guard let kept = try? converter.convert(Money(minorUnits: 1_000, currency: source), to: target) else { continue }
            compared += 1
            let other = Money(minorUnits: Int64.random(in: -2_000_000_000...2_000_000_000, using: &generator), currency: source)
            let fresh = Result { () throws(ConversionError) in try converter.convert(other, to: target) }
            let applied = Result { () throws(ConversionError) in try kept.applied(to: other) }
            #expect(applied == fresh, "\(other) → \(target.code) through \(kept.legs.map(\.quote.pair))")
        }
        #expect(compared > 2_000)
    }

    @Test func throughAPivotEqualsTheDirectRateWhereBothExist() throws {
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<3_000 {
            let (first, _, _) = Self.rate(&generator)
            let (second, _, _) = Self.rate(&generator)
            guard let direct = try? ExchangeRate(exactly: first.value * second.value) else { continue }
            let throughEUR = CurrencyConverter(book: RateBook(quotes: [Self.quote("USD", "EUR", first), Self.quote("EUR", "JPY", second)]), pivots: ["EUR"])
            let straight = CurrencyConverter(book: RateBook(quotes: [Self.quote("USD", "JPY", direct)]), pivots: [])
            let money = Money(minorUnits: Int64.random(in: -1_000_000_000...1_000_000_000, using: &generator), currency: try Currency(code: "USD"))
            let jpy = try Currency(code: "JPY")
            // Both ways give the same amount, or both refuse a result too large to be one.
            guard let pivoted = try? throughEUR.convert(money, to: jpy) else {
                #expect(throws: ConversionError.self) { try straight.convert(money, to: jpy) }
                continue
            }
            #expect(pivoted.legs.map(\.pair) == [CurrencyPair("USD", "EUR"), CurrencyPair("EUR", "JPY")])
            #expect(pivoted.result == (try straight.convert(money, to: jpy)).result)
        }
    }

    @Test func theRateInForceIsTheNewestAtOrBeforeTheMoment() throws {
        let day: TimeInterval = 86_400
        let quotes = [("1.10", 0.0), ("1.20", 2 * day), ("1.30", 4 * day)].map { text, offset in
            Self.quote("EUR", "USD", try! ExchangeRate(parsing: text), at: Self.moment.addingTimeInterval(offset))
        }
        let book = RateBook(quotes: quotes.shuffled())
        #expect(book.quote(CurrencyPair("EUR", "USD"), at: Self.moment.addingTimeInterval(-1)) == nil)
        #expect(book.quote(CurrencyPair("EUR", "USD"), at: Self.moment)?.rate.decimalString == "1.1")
        #expect(book.quote(CurrencyPair("EUR", "USD"), at: Self.moment.addingTimeInterval(3 * day))?.rate.decimalString == "1.2")
        #expect(book.quote(CurrencyPair("EUR", "USD"), at: Self.moment.addingTimeInterval(4 * day))?.rate.decimalString == "1.3")
        #expect(book.quote(CurrencyPair("EUR", "USD"))?.rate.decimalString == "1.3")
    }

    @Test func aMissingRateIsAnErrorNeverOne() throws {
        let converter = CurrencyConverter(book: RateBook(quotes: [Self.quote("EUR", "USD", try ExchangeRate(parsing: "1.1"))]), pivots: ["EUR"])
        #expect(throws: ConversionError.missingRate(from: "JPY", to: "USD")) {
            try converter.convert(Money(minorUnits: 5_000, currency: try Currency(code: "JPY")), to: try Currency(code: "USD"))
        }
        let same = try converter.convert(Money(minorUnits: 5_000, currency: try Currency(code: "JPY")), to: try Currency(code: "JPY"))
        #expect(same.legs.isEmpty)
        #expect(same.result.minorUnits == 5_000)
        #expect(ConversionError.missingRate(from: "JPY", to: "USD").description.contains("ledgerly rates set JPY USD"))
    }

    @Test func aResultBeyondSixtyFourBitsIsAnError() throws {
        let huge = try ExchangeRate(parsing: "1000000000")
        #expect(throws: ConversionError.self) {
            try CurrencyConverter.apply(huge, to: Money(minorUnits: 900_000_000_000_000, currency: try Currency(code: "JPY")), target: try Currency(code: "CLF"))
        }
    }
}
