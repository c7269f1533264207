import Foundation
import LedgerlyCore

/// CoinGecko's `/simple/price?ids=bitcoin,ethereum&vs_currencies=usd,eur&include_last_updated_at=true`:
///
/// ```
/// {"bitcoin":{"usd":67187.33,"eur":60139.03,"last_updated_at":1793376000},"ethereum":{…}}
/// ```
///
/// CoinGecko keys prices by its own coin ids ("bitcoin"), not symbols, and symbols are not unique
/// across coins, so the caller passes the id → symbol table it requested with; an id missing
/// from it throws `.unknownCoin` rather than guessing. Each price becomes a rate with the coin
/// symbol as `base` and the vs-currency (upper-cased) as `quote`: units of quote per 1 coin.
/// `last_updated_at` (Unix seconds) becomes `timestamp` (ISO 8601) and its UTC day `date`.
///
/// Choices, explicitly:
/// - Keys with an underscore (`usd_market_cap`, `usd_24h_vol`, `usd_24h_change`, sent when those
///   options are on) are not prices and are skipped.
/// - A price that is `null`, a string, zero, negative or outside `ExchangeRate`'s range throws
///   `.badRate`: no partial result.
/// - An error body, `{"status":{"error_code":429,"error_message":"…"}}` or `{"error":"…"}`,
///   throws `.providerReported`.
/// Output is sorted by coin id, then by quote code.
public struct CoinGeckoParser: Sendable {
    /// CoinGecko id → symbol, e.g. ["bitcoin": "BTC", "ethereum": "ETH"].
    public let symbols: [String: String]

    public init(symbols: [String: String]) {
        self.symbols = symbols
    }

    public func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.coinGecko
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .object(let coins) = json else { throw .notFormat(format, reason: "the top level is \(json.kind), expected an object") }
        if let status = json["status"], let code = status["error_code"] {
            let message = status["error_message"]?.string ?? "no message"
            throw .providerReported(format, status: code.number.flatMap { Int($0.description) }, message: message)
        }
        if let error = json["error"]?.string { throw .providerReported(format, status: nil, message: error) }

        var result: [ProviderRate] = []
        for (id, value) in coins.sorted(by: { $0.key < $1.key }) {
            guard case .object(let prices) = value else {
                throw .malformed(format, detail: "'\(id)' is \(value.kind), expected an object of prices", at: .path(id))
            }
            guard let symbol = symbols[id] else { throw .unknownCoin(format, id: id) }
            let base = try ProviderFields.currency(symbol, format, at: .path(id))
            var date: LedgerDate?
            var timestamp: String?
            if let updated = prices["last_updated_at"] {
                guard let seconds = updated.number else { throw .badDate(format, value: updated.text, at: .path("\(id).last_updated_at")) }
                let time = try ProviderFields.unixTime(seconds, format, at: .path("\(id).last_updated_at"))
                (timestamp, date) = (time.timestamp, time.date)
            }
            for (key, price) in prices.sorted(by: { $0.key < $1.key }) where !key.contains("_") {
                let location = ProviderError.Location.path("\(id).\(key)")
                let quote = try ProviderFields.currency(key, format, at: location)
                let pair = "\(base)/\(quote)"
                guard quote != base else { continue }
                guard let number = price.number else {
                    throw .badRate(format, pair: pair, value: price.text, at: location, reason: .malformed(price.text))
                }
                let rate = try ProviderFields.rate(number, pair: pair, format, at: location)
                result.append(ProviderRate(base: base, quote: quote, rate: rate, date: date, timestamp: timestamp))
            }
        }
        guard !result.isEmpty else { throw .noRates(format) }
        return result
    }
}
