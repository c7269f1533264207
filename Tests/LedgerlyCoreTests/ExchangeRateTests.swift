import Foundation
import LedgerlyCore
import Testing

@Suite struct ExchangeRateTests {
    @Test(arguments: ["161.25", "0.0061823802", "1", "1000000000", "0.000000001", "42000", "1185.50"])
    func parsesPlainPositiveDecimals(text: String) throws {
        #expect(try ExchangeRate(parsing: text).value == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test(arguments: [
        ("1e3", RateError.malformed("1e3")), ("-1.5", .malformed("-1.5")), ("12abc", .malformed("12abc")), ("NaN", .malformed("NaN")),
        ("", .malformed("")), (".5", .malformed(".5")), ("1,5", .malformed("1,5")), ("0", .notPositive("0")), ("0.000", .notPositive("0.000")),
        ("0.0000000001", .outOfRange("0.0000000001")), ("1000000001", .outOfRange("1000000001")),
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
