import Foundation
import LedgerlyCore
@testable import LedgerlyRates
import Testing

/// The price formats of Alpha Vantage, CoinGecko and Finnhub, read from recorded-shape fixtures:
/// prices exact from their text, the providers' own error documents refused with what they said.
@Suite struct PriceParserTests {
    /// The error a price parse throws; records an issue when it returns a price instead.
    static func failure<T>(_ parse: () throws(ProviderError) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> ProviderError? {
        do {
            let value = try parse()
            Issue.record("expected a ProviderError, got \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Alpha Vantage

    @Test func alphaVantageGlobalQuoteGivesThePriceExactlyAndTheTradingDay() throws {
        let price = try AlphaVantageQuoteParser(symbol: "IBM").parse(Fixture.data("alphavantage-quote-ibm.json"))
        #expect(price.description == "IBM 231.45 on 2026-11-20")
        #expect(price.price.value == Decimal(string: "231.45"))
        #expect(price.currency == nil)
        #expect(price.asOf == nil)
        // The symbol is compared without case: Alpha Vantage echoes what it was asked.
        #expect(try AlphaVantageQuoteParser(symbol: "ibm").parse(Fixture.data("alphavantage-quote-ibm.json")).price.decimalString == "231.45")
    }

    @Test func alphaVantageErrorDocumentsAreNotPrices() throws {
        let parser = AlphaVantageQuoteParser(symbol: "IBM")
        let error = Self.failure { () throws(ProviderError) in try parser.parse(try! Fixture.data("alphavantage-error-message.json")) }
        guard case .providerReported(.alphaVantage, nil, let message) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.hasPrefix("Invalid API call."))

        let note = Self.failure { () throws(ProviderError) in try parser.parse(try! Fixture.data("alphavantage-note.json")) }
        guard case .limitReported(.alphaVantage, let frequency) = note else { Issue.record("got \(String(describing: note))"); return }
        #expect(frequency.contains("5 calls per minute"))
        #expect(!AlphaVantageQuoteParser.isDailyLimit(frequency))  // names both limits: taken as the frequency one

        let information = Self.failure { () throws(ProviderError) in try parser.parse(try! Fixture.data("alphavantage-information.json")) }
        guard case .limitReported(.alphaVantage, let daily) = information else { Issue.record("got \(String(describing: information))"); return }
        #expect(AlphaVantageQuoteParser.isDailyLimit(daily))
        #expect(!AlphaVantageQuoteParser.isDailyLimit("Thank you for using Alpha Vantage! Please spread out your requests (1 request per second)."))
        #expect(information?.description.hasPrefix("Alpha Vantage JSON: the provider's request limit is reached: We have detected") == true)
    }

    @Test(arguments: [
        ("alphavantage-quote-nope.json", "NOPE", ProviderError.noPrice(.alphaVantage, symbol: "NOPE")),
        ("alphavantage-quote-negx.json", "NEGX", .badPrice(.alphaVantage, symbol: "NEGX", value: "-12.0500", at: .path("Global Quote.05. price"), reason: .notPositive("-12.0500"))),
        ("alphavantage-quote-zerx.json", "ZERX", .badPrice(.alphaVantage, symbol: "ZERX", value: "0.0000", at: .path("Global Quote.05. price"), reason: .notPositive("0.0000"))),
        ("alphavantage-quote-badx.json", "BADX", .badPrice(.alphaVantage, symbol: "BADX", value: "N/A", at: .path("Global Quote.05. price"), reason: .malformed("N/A"))),
        ("alphavantage-quote-ibm.json", "MSFT", .malformed(.alphaVantage, detail: "the quote is for 'IBM', the request asked for 'MSFT'", at: .path("Global Quote.01. symbol"))),
        ("html-error-page.html", "IBM", .htmlPage(.alphaVantage, title: "502 Bad Gateway")),
    ])
    func alphaVantageRefusesBadQuotes(file: String, symbol: String, expected: ProviderError) throws {
        let data = try Fixture.data(file)
        #expect(Self.failure { () throws(ProviderError) in try AlphaVantageQuoteParser(symbol: symbol).parse(data) } == expected)
    }

    @Test(arguments: [
        (#"{"Global Quote": {"01. symbol": "IBM", "05. price": "1e3", "07. latest trading day": "2026-11-20"}}"#, "not a plain positive decimal"),
        (#"{"Global Quote": {"01. symbol": "IBM", "05. price": "0.0000000000001", "07. latest trading day": "2026-11-20"}}"#, "outside the accepted range"),
        (#"{"Global Quote": {"01. symbol": "IBM", "05. price": "1234567890.1234567891", "07. latest trading day": "2026-11-20"}}"#, "significant digits"),
        (#"{"Global Quote": {"01. symbol": "IBM", "05. price": 231.45, "07. latest trading day": "2026-11-20"}}"#, "expected a string"),
        (#"{"Global Quote": {"01. symbol": "IBM", "05. price": "231.45", "07. latest trading day": "2026-02-30"}}"#, "not a date"),
        (#"{"Global Quote": {"01. symbol": "IBM", "07. latest trading day": "2026-11-20"}}"#, "missing field '05. price'"),
        (#"[]"#, "expected an object"),
    ])
    func alphaVantageHoldsPricesToTheRateRule(json: String, expected: String) {
        let error = Self.failure { () throws(ProviderError) in try AlphaVantageQuoteParser(symbol: "IBM").parse(Data(json)) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    // MARK: CoinGecko

    @Test func coinGeckoPricesAreKeyedByCoinIdWithTheProvidersTime() throws {
        let prices = try CoinGeckoParser.prices(Fixture.data("coingecko-simple-price-assets.json"), ids: ["bitcoin", "ethereum", "dogecoin"])
        #expect(prices.map(\.description) == [
            "bitcoin/EUR 91834.2 at 2026-11-23T14:05:12Z", "bitcoin/USD 97012.45 at 2026-11-23T14:05:12Z",
            "ethereum/EUR 2939.8 at 2026-11-23T14:04:31Z", "ethereum/USD 3105.67 at 2026-11-23T14:04:31Z",
        ])  // dogecoin was not in the answer: no price, and no error from the document
        #expect(try CoinGeckoParser.prices(Fixture.data("coingecko-simple-price-assets.json"), ids: ["ethereum"]).map(\.key) == ["ethereum", "ethereum"])
    }

    @Test func coinGeckoRefusesTheWholeDocumentForOneBadPrice() throws {
        let negative = Self.failure { () throws(ProviderError) in try CoinGeckoParser.prices(try! Fixture.data("coingecko-simple-price-negative.json"), ids: ["bitcoin"]) }
        #expect(negative == .badPrice(.coinGecko, symbol: "bitcoin", value: "-97012.45", at: .path("bitcoin.usd"), reason: .notPositive("-97012.45")))
        let mixed = #"{"bitcoin":{"usd":97012.45},"ethereum":{"usd":"3105.67"}}"#
        #expect(Self.failure { () throws(ProviderError) in try CoinGeckoParser.prices(Data(mixed), ids: ["bitcoin", "ethereum"]) }
            == .badPrice(.coinGecko, symbol: "ethereum", value: "3105.67", at: .path("ethereum.usd"), reason: .malformed("3105.67")))
        let limited = Self.failure { () throws(ProviderError) in try CoinGeckoParser.prices(try! Fixture.data("coingecko-429.json"), ids: ["bitcoin"]) }
        guard case .providerReported(.coinGecko, 429, _) = limited else { Issue.record("got \(String(describing: limited))"); return }
    }

    // MARK: Finnhub

    @Test func finnhubQuoteGivesTheCurrentPriceAtItsTime() throws {
        let price = try FinnhubQuoteParser(symbol: "AAPL").parse(Fixture.data("finnhub-quote-aapl.json"))
        #expect(price.description == "AAPL 229.87 at 2026-11-20T21:00:00Z")
        #expect(price.price.value == Decimal(string: "229.87"))
    }

    @Test func finnhubUnknownSymbolsAndErrorsAreNotPrices() throws {
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "NOPE").parse(try! Fixture.data("finnhub-quote-unknown.json")) }
            == .noPrice(.finnhub, symbol: "NOPE"))
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "AAPL").parse(try! Fixture.data("finnhub-error.json")) }
            == .providerReported(.finnhub, status: nil, message: "Invalid API key."))
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "AAPL").parse(Data(#"{"c":-1.5,"t":1795208400}"#)) }
            == .badPrice(.finnhub, symbol: "AAPL", value: "-1.5", at: .path("c"), reason: .notPositive("-1.5")))
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "AAPL").parse(Data(#"{"c":0,"t":1795208400}"#)) }
            == .badPrice(.finnhub, symbol: "AAPL", value: "0", at: .path("c"), reason: .notPositive("0")))
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "AAPL").parse(Data(#"{"c":"229.87","t":1795208400}"#)) }
            == .badPrice(.finnhub, symbol: "AAPL", value: "229.87", at: .path("c"), reason: .malformed("229.87")))
        #expect(Self.failure { () throws(ProviderError) in try FinnhubQuoteParser(symbol: "AAPL").parse(Data(#"{"c":229.87}"#)) }
            == .missingField(.finnhub, field: "t", at: nil))
    }

    /// A price is the decimal the provider wrote, digit for digit: no binary floating point on
    /// the way (0.1 + 0.2 style drift, or 17-digit noise, would show here).
    @Test func pricesKeepEveryDigitTheProviderSent() throws {
        let json = #"{"c":0.123456789012345678,"t":1795208400}"#
        #expect(try FinnhubQuoteParser(symbol: "X").parse(Data(json)).price.decimalString == "0.123456789012345678")
        let gecko = #"{"shiba-inu":{"usd":0.00000812345678,"last_updated_at":1795208400}}"#
        #expect(try CoinGeckoParser.prices(Data(gecko), ids: ["shiba-inu"]).first?.price.decimalString == "0.00000812345678")
    }
}
