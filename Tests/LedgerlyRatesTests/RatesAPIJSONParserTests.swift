import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

@Suite struct RatesAPIJSONParserTests {
    let parser = RatesAPIJSONParser()

    @Test func readsFrankfurterLatest() throws {
        let rates = try parser.parse(Fixture.data("frankfurter-latest.json"))
        #expect(rates.count == 29)
        #expect(rates.allSatisfy { $0.base == "EUR" && $0.date?.description == "2026-10-30" && $0.timestamp == nil })
        #expect(rates.map(\.quote) == rates.map(\.quote).sorted())
        #expect(rate(rates, "EUR", "USD")?.rate.decimalString == "1.1172")
        #expect(rate(rates, "EUR", "JPY")?.rate.decimalString == "175.68")
        #expect(rate(rates, "EUR", "IDR")?.rate.value == Decimal(string: "20275.17"))
    }

    @Test func readsAFrankfurterTimeSeries() throws {
        let rates = try parser.parse(Fixture.data("frankfurter-timeseries.json"))
        #expect(rates.count == 5 * 4)
        #expect(rates.compactMap(\.date?.description).first == "2026-10-26")
        #expect(Set(rates.compactMap(\.date?.description)) == ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30"])
        #expect(rate(rates, "EUR", "USD", on: "2026-10-26")?.rate.decimalString == "1.1188")
        #expect(rate(rates, "EUR", "USD", on: "2026-10-29")?.rate.decimalString == "1.113")
        #expect(rate(rates, "EUR", "JPY", on: "2026-10-30")?.rate.decimalString == "175.68")
        #expect(rate(rates, "EUR", "GBP", on: "2026-10-27")?.rate.decimalString == "0.83658")
    }

    @Test func readsOpenExchangeRates() throws {
        let rates = try parser.parse(Fixture.data("openexchangerates-latest.json"))
        #expect(rates.count == 29)  // 30 entries less the base's own "USD": 1
        #expect(!rates.contains { $0.quote == "USD" })
        #expect(rates.allSatisfy { $0.base == "USD" && $0.timestamp == "2026-10-30T16:00:00Z" && $0.date?.description == "2026-10-30" })
        #expect(rate(rates, "USD", "EUR")?.rate.decimalString == "0.895095")
        #expect(rate(rates, "USD", "JPY")?.rate.decimalString == "157.25")
        #expect(rate(rates, "USD", "GBP")?.rate.decimalString == "0.74633")
    }

    @Test func numbersAreReadExactly() throws {
        let rates = try parser.parse(Data(#"{"base":"EUR","date":"2026-10-30","rates":{"USD":1.08671234567890123,"XAU":0.000321}}"#))
        #expect(rate(rates, "EUR", "USD")?.rate.value == Decimal(string: "1.08671234567890123"))
        #expect(rate(rates, "EUR", "XAU")?.rate.decimalString == "0.000321")
    }

    @Test func errorBodiesAreTheProvidersWords() throws {
        #expect(try providerError(file: "frankfurter-error.json") { data throws(ProviderError) in try parser.parse(data) }
            == .providerReported(.ratesAPI, status: nil, message: "not found"))
        let error = try providerError(file: "openexchangerates-error.json") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .providerReported(.ratesAPI, status: 401, message: "invalid_app_id: Invalid App ID provided. Please sign up at https://openexchangerates.org/signup, or contact support@openexchangerates.org."))
        #expect(error?.description.hasPrefix("rates API JSON: the provider answered with error 401: invalid_app_id") == true)
        let limited = #"{"error":true,"status":429,"message":"too_many_requests","description":"Slow down."}"#
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(limited)) }
            == .providerReported(.ratesAPI, status: 429, message: "too_many_requests: Slow down."))
    }

    @Test(arguments: [
        (#"{"base":"EUR","rates":{"USD":-1.1}}"#, ProviderError.badRate(.ratesAPI, pair: "EUR/USD", value: "-1.1", at: .path("rates.USD"), reason: .notPositive("-1.1"))),
        (#"{"base":"EUR","rates":{"USD":0}}"#, .badRate(.ratesAPI, pair: "EUR/USD", value: "0", at: .path("rates.USD"), reason: .notPositive("0"))),
        (#"{"base":"EUR","rates":{"USD":"1.1"}}"#, .badRate(.ratesAPI, pair: "EUR/USD", value: "1.1", at: .path("rates.USD"), reason: .malformed("1.1"))),
        (#"{"base":"EUR","rates":{"USD":null}}"#, .badRate(.ratesAPI, pair: "EUR/USD", value: "null", at: .path("rates.USD"), reason: .malformed("null"))),
        (#"{"base":"EUR","rates":{"USD":2000000000000}}"#, .badRate(.ratesAPI, pair: "EUR/USD", value: "2000000000000", at: .path("rates.USD"), reason: .outOfRange("2000000000000"))),
        (#"{"base":"EUR","rates":{"U1":1.1}}"#, .unknownCurrency(.ratesAPI, code: "U1", at: .path("rates.U1"))),
        (#"{"base":"EUR","date":"2026-10-32","rates":{"USD":1.1}}"#, .badDate(.ratesAPI, value: "2026-10-32", at: .path("date"))),
        (#"{"base":"USD","timestamp":-5,"rates":{"EUR":0.9}}"#, .badDate(.ratesAPI, value: "-5", at: .path("timestamp"))),
        (#"{"base":"EUR","rates":{"2026-10-30":{"USD":1.1},"2026-10-31":5}}"#, .malformed(.ratesAPI, detail: "the day is a number, expected an object of rates", at: .path("rates.2026-10-31"))),
        (#"{"base":"EUR","rates":{"2026-10-30":{"USD":1.1},"tomorrow":{"USD":1.2}}}"#, .badDate(.ratesAPI, value: "tomorrow", at: .path("rates.tomorrow"))),
        (#"{"amount":10.0,"base":"EUR","rates":{"USD":11.172}}"#, .notFormat(.ratesAPI, reason: "the rates are for an amount of 10 EUR, not 1 (request amount=1)")),
        (#"{"rates":{"USD":1.1}}"#, .missingField(.ratesAPI, field: "base", at: nil)),
        (#"{"base":"EUR"}"#, .missingField(.ratesAPI, field: "rates", at: nil)),
        (#"{"base":"EUR","rates":[1.1]}"#, .malformed(.ratesAPI, detail: "'rates' is an array, expected an object", at: .path("rates"))),
        (#"{"base":"EUR","rates":{}}"#, .noRates(.ratesAPI)),
        (#"[{"base":"EUR"}]"#, .notFormat(.ratesAPI, reason: "the top level is an array, expected an object")),
        (#"{"base":"EUR","rates":{"USD":1.1}"#, .malformed(.ratesAPI, detail: "", at: nil)),
        (#"{"base":"EUR","rates":{"USD":1e400}}"#, .malformed(.ratesAPI, detail: "a number too large or too precise to read exactly", at: .path("rates.USD"))),
    ])
    func refusesBadDocuments(json: String, expected: ProviderError) {
        let error = providerError { () throws(ProviderError) in try parser.parse(Data(json)) }
        if case .malformed(.ratesAPI, _, nil) = expected {
            guard case .malformed(.ratesAPI, let detail, nil) = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(detail.hasPrefix("not valid JSON"))
        } else {
            #expect(error == expected)
        }
    }
}
