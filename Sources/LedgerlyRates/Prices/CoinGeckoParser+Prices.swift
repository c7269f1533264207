import Foundation
import LedgerlyCore

extension CoinGeckoParser {
    /// The same `/simple/price?ids=…&vs_currencies=…&include_last_updated_at=true` document read
    /// as asset prices: one `ProviderPrice` per coin id and vs-currency, keyed by the coin id
    /// (ids such as "usd-coin" are not currency codes, so they are not turned into symbols here;
    /// the refresher maps them back to its assets).
    ///
    /// The rules are the rates' (`parse`): an error body throws `.providerReported`, keys with an
    /// underscore are market data, and any bad price throws, naming it, so no partial result. A
    /// coin id missing from the answer is CoinGecko's way of saying it does not know it: it has
    /// no prices here, and the refresher names it in the status. Ids not asked for are ignored.
    public static func prices(_ data: Data, ids: Set<String>) throws(ProviderError) -> [ProviderPrice] {
        let format = ProviderError.Format.coinGecko
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .object(let coins) = json else { throw .notFormat(format, reason: "the top level is \(json.kind), expected an object") }
        if let status = json["status"], let code = status["error_code"] {
            let message = status["error_message"]?.string ?? "no message"
            throw .providerReported(format, status: code.number.flatMap { Int($0.description) }, message: message)
        }
        if let error = json["error"] { throw .providerReported(format, status: nil, message: error.string ?? error.text) }

        var result: [ProviderPrice] = []
        for id in ids.sorted() {
            // Not in the answer: CoinGecko does not know the id; the caller names it.
            guard let value = coins[id] else { continue }
            guard case .object(let prices) = value else {
                throw .malformed(format, detail: "'\(id)' is \(value.kind), expected an object of prices", at: .path(id))
            }
            var asOf: String?
            if let updated = prices["last_updated_at"] {
                guard let seconds = updated.number else { throw .badDate(format, value: updated.text, at: .path("\(id).last_updated_at")) }
                asOf = try ProviderFields.unixTime(seconds, format, at: .path("\(id).last_updated_at")).timestamp
            }
            for (key, price) in prices.sorted(by: { $0.key < $1.key }) where !key.contains("_") {
                let location = ProviderError.Location.path("\(id).\(key)")
                let currency = try ProviderFields.currency(key, format, at: location)
                result.append(ProviderPrice(key: id, currency: currency, price: try ProviderFields.price(price, symbol: id, format, at: location), asOf: asOf))
            }
        }
        return result
    }
}
