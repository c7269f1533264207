import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

@Suite struct CoinGeckoParserTests {
    let parser = CoinGeckoParser(symbols: ["bitcoin": "BTC", "ethereum": "ETH", "tether": "USDT"])

    @Test func readsSimplePrice() throws {
        let rates = try parser.parse(Fixture.data("coingecko-simple-price.json"))
        #expect(rates.count == 6)
        #expect(rates.map(\.description).first == "BTC/EUR 60139.03 on 2026-10-30 at 2026-10-30T16:00:00Z")
        #expect(rate(rates, "BTC", "USD")?.rate.decimalString == "67187.33")
        #expect(rate(rates, "ETH", "EUR")?.rate.decimalString == "2228.53")
        #expect(rate(rates, "ETH", "USD")?.timestamp == "2026-10-30T15:59:45Z")
        #expect(rate(rates, "USDT", "USD")?.rate.decimalString == "1")
        #expect(rate(rates, "USDT", "EUR")?.rate.value == Decimal(string: "0.895078"))
    }

    @Test func aRateLimitReplyIsReported() throws {
        let error = try providerError(file: "coingecko-429.json") { data throws(ProviderError) in try parser.parse(data) }
        guard case .providerReported(.coinGecko, 429, let message) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.hasPrefix("You've exceeded the Rate Limit."))
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(#"{"error":"coin not found"}"#)) }
            == .providerReported(.coinGecko, status: nil, message: "coin not found"))
    }

    @Test func marketDataKeysAreNotPrices() throws {
        let json = #"{"bitcoin":{"usd":67187.33,"usd_market_cap":1330000000000,"usd_24h_vol":31000000000.5,"usd_24h_change":-1.25}}"#
        let rates = try parser.parse(Data(json))
        #expect(rates.map(\.description) == ["BTC/USD 67187.33"])
    }

    @Test(arguments: [
        (#"{"dogecoin":{"usd":0.12}}"#, ProviderError.unknownCoin(.coinGecko, id: "dogecoin")),
        (#"{"bitcoin":{"usd":null}}"#, .badRate(.coinGecko, pair: "BTC/USD", value: "null", at: .path("bitcoin.usd"), reason: .malformed("null"))),
        (#"{"bitcoin":{"usd":-67187.33}}"#, .badRate(.coinGecko, pair: "BTC/USD", value: "-67187.33", at: .path("bitcoin.usd"), reason: .notPositive("-67187.33"))),
        (#"{"bitcoin":{"usd":0}}"#, .badRate(.coinGecko, pair: "BTC/USD", value: "0", at: .path("bitcoin.usd"), reason: .notPositive("0"))),
        (#"{"bitcoin":{"usd":67187.33},"ethereum":{"usd":"2489.71"}}"#, .badRate(.coinGecko, pair: "ETH/USD", value: "2489.71", at: .path("ethereum.usd"), reason: .malformed("2489.71"))),
        (#"{"bitcoin":{"usd":67187.33,"last_updated_at":"yesterday"}}"#, .badDate(.coinGecko, value: "yesterday", at: .path("bitcoin.last_updated_at"))),
        (#"{"bitcoin":67187.33}"#, .malformed(.coinGecko, detail: "'bitcoin' is a number, expected an object of prices", at: .path("bitcoin"))),
        ("{}", .noRates(.coinGecko)),
        (#"{"bitcoin":{}}"#, .noRates(.coinGecko)),
    ])
    func refusesBadDocuments(json: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(json)) } == expected)
    }

    @Test func symbolsMustBeCurrencyCodes() {
        let parser = CoinGeckoParser(symbols: ["bitcoin": "₿"])
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(#"{"bitcoin":{"usd":1}}"#)) }
            == .unknownCurrency(.coinGecko, code: "₿", at: .path("bitcoin")))
    }
}
