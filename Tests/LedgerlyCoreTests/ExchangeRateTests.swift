import Foundation
import LedgerlyCore
import Testing

@Suite struct ExchangeRateTests {
    @Test(arguments: [
        ("161.25", Decimal(sign: .plus, exponent: -2, significand: 16125)), ("0.0061823802", Decimal(sign: .plus, exponent: -10, significand: 61_823_802)),
        ("1", Decimal(1)), ("1000000000000", Decimal(sign: .plus, exponent: 12, significand: 1)), ("0.000000000001", Decimal(sign: .plus, exponent: -12, significand: 1)),
        ("1185.50", Decimal(sign: .plus, exponent: -1, significand: 11855)), ("2500000000", Decimal(2_500_000_000)),
    ])
    func parsesPlainPositiveDecimals(text: String, value: Decimal) throws {
        #expect(try ExchangeRate(parsing: text).value == value)
    }

    @Test func bitcoinHasSatoshis() throws {
        #expect(try Currency(code: "BTC").exponent == 8)
        #expect(try Money(parsing: "0.00012345", currency: Currency(code: "btc")).minorUnits == 12_345)
    }

    @Test(arguments: [
        ("1e3", RateError.malformed("1e3")), ("-1.5", .notPositive("-1.5")), ("-1", .notPositive("-1")), ("--1", .malformed("--1")), ("-", .malformed("-")), ("12abc", .malformed("12abc")), ("NaN", .malformed("NaN")),
        ("", .malformed("")), (".5", .malformed(".5")), ("1,5", .malformed("1,5")), ("0", .notPositive("0")), ("0.000", .notPositive("0.000")),
        ("0.0000000000001", .outOfRange("0.0000000000001")), ("1000000000001", .outOfRange("1000000000001")),
        ("1.2345678901234567891", .tooPrecise("1.2345678901234567891")),
    ])
    func refusesWhatIsNotARate(text: String, error: RateError) {
        #expect(throws: error) { try ExchangeRate(parsing: text) }
    }

    @Test func theInverseKeepsEighteenSignificantDigits() throws {
        let rate = try ExchangeRate(parsing: "161.25")
        #expect(rate.inverse.decimalString == "0.00620155038759689922")
        #expect(try ExchangeRate(parsing: "4").inverse.decimalString == "0.25")
    }

    @Test func stalenessDependsOnTheKindOfPair() {
        let policy = StalenessPolicy.standard
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func quote(_ base: String, _ quote: String, minutesAgo: Double) -> RateQuote {
            RateQuote(pair: CurrencyPair(base, quote), rate: .one, asOf: now.addingTimeInterval(-minutesAgo * 60), source: "t", confidence: .fetched)
        }
        #expect(!policy.isStale(quote("EUR", "USD", minutesAgo: 59), now: now))
        #expect(policy.isStale(quote("EUR", "USD", minutesAgo: 61), now: now))
        #expect(!policy.isStale(quote("BTC", "EUR", minutesAgo: 14), now: now))
        #expect(policy.isStale(quote("EUR", "BTC", minutesAgo: 16), now: now))
        #expect(StalenessPolicy.describe(.seconds(3 * 3_600 + 59)) == "3 h")
        #expect(StalenessPolicy.describe(.seconds(125)) == "2 min")
        #expect(StalenessPolicy.describe(.seconds(2 * 86_400)) == "2 d")
    }
}

/// Which stored rate a leg uses when a pair and its inverse are both known.
@Suite struct RateBookPrecedenceTests {
    static func quote(_ base: String, _ quote: String, _ rate: String, hoursAgo: Double, override: Bool = false) throws -> RateQuote {
        RateQuote(pair: CurrencyPair(base, quote), rate: try ExchangeRate(parsing: rate), asOf: Date().addingTimeInterval(-hoursAgo * 3_600),
                  source: override ? "manual" : "ecb", confidence: override ? .manual : .fetched, isOverride: override)
    }

    @Test func theNewerWinsUnlessOneIsAnOverride() throws {
        let fetched = try Self.quote("EUR", "USD", "1.1172", hoursAgo: 1)
        let olderOverride = try Self.quote("USD", "EUR", "0.9", hoursAgo: 5, override: true)
        let newerManual = try Self.quote("USD", "EUR", "0.95", hoursAgo: 0.5)
        #expect(RateBook(quotes: [fetched, newerManual]).leg(from: "EUR", to: "USD")?.inverted == true)
        let leg = try #require(RateBook(quotes: [fetched, olderOverride]).leg(from: "EUR", to: "USD"))
        #expect(leg.inverted)
        #expect(leg.quote.isOverride)
    }

    /// D401: the age is now minus the rate's own moment; a confirmation two minutes ago of a rate
    /// dated yesterday leaves it a day old.
    @Test func ageCountsFromTheRatesOwnMomentNotItsLastConfirmation() throws {
        let now = Date()
        let yesterday = RateQuote(pair: CurrencyPair("EUR", "USD"), rate: try ExchangeRate(parsing: "1.1172"), asOf: now.addingTimeInterval(-86_400),
                                  source: "ecb", confidence: .fetched, confirmedAt: now.addingTimeInterval(-120))
        let policy = StalenessPolicy(fiatMinutes: 60, cryptoMinutes: 15)
        #expect(policy.age(of: yesterday, now: now) == .seconds(86_400))
        #expect(policy.isStale(yesterday, now: now))
        let recent = RateQuote(pair: CurrencyPair("EUR", "USD"), rate: try ExchangeRate(parsing: "1.1172"), asOf: now.addingTimeInterval(-120),
                               source: "ecb", confidence: .fetched)
        #expect(!policy.isStale(recent, now: now))
        #expect(policy.isStale(recent, now: now.addingTimeInterval(3_600)))
    }
}
