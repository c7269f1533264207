import Foundation
import LedgerlyCore

/// One price read from a provider's document, before it becomes a snapshot.
///
/// Like `ProviderRate`, a value that exists passed every check: the price is an `ExchangeRate`
/// (an exact positive decimal in the rate range, never binary floating point), because
/// investments.md holds prices to the rate rule.
public struct ProviderPrice: Sendable, Hashable, CustomStringConvertible {
    /// What the provider was asked for: a ticker ("IBM") or a CoinGecko coin id ("bitcoin").
    public let key: String
    /// The currency the price is in, when the document says (CoinGecko's vs-currency); nil when
    /// it does not (Alpha Vantage, Finnhub: the listing's currency, which is the asset's).
    public let currency: String?
    public let price: ExchangeRate
    /// The provider's own time for the price, in the protocol's timestamp form, when it gives one.
    public let asOf: String?
    /// The day the price is for, when the provider gives only a day (Alpha Vantage's latest
    /// trading day); the refresher decides what moment that is.
    public let day: LedgerDate?

    public init(key: String, currency: String? = nil, price: ExchangeRate, asOf: String? = nil, day: LedgerDate? = nil) {
        self.key = key
        self.currency = currency
        self.price = price
        self.asOf = asOf
        self.day = day
    }

    /// "IBM 231.5 on 2026-11-20": what a log line or a test failure should show.
    public var description: String {
        var text = key + (currency.map { "/\($0)" } ?? "") + " " + price.decimalString
        if let day { text += " on \(day)" }
        if let asOf { text += " at \(asOf)" }
        return text
    }
}

extension ProviderFields {
    /// A price from its decimal text (Alpha Vantage sends strings), by the rate rule.
    static func price(_ text: String, symbol: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> ExchangeRate {
        do {
            return try ExchangeRate(parsing: text)
        } catch {
            var reason = error
            if case .malformed = error, text.hasPrefix("-"), isPlainDecimal(text.utf8.dropFirst()) { reason = .notPositive(text) }
            throw .badPrice(format, symbol: symbol, value: text, at: location, reason: reason)
        }
    }

    /// A price from a JSON number, decoded exactly as `Decimal` from the number's own text.
    static func price(_ value: ProviderJSON, symbol: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> ExchangeRate {
        guard let number = value.number else { throw .badPrice(format, symbol: symbol, value: value.text, at: location, reason: .malformed(value.text)) }
        do { return try ExchangeRate(exactly: number) } catch {
            throw .badPrice(format, symbol: symbol, value: number.description, at: location, reason: error)
        }
    }
}
