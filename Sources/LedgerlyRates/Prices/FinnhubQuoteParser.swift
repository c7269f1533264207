import Foundation
import LedgerlyCore

/// Finnhub's `/quote?symbol=AAPL` (the key in the `X-Finnhub-Token` header), one symbol per
/// request:
///
/// ```
/// {"c":229.87,"d":1.35,"dp":0.5907,"h":230.64,"l":227.88,"o":228.06,"pc":228.52,"t":1794945600}
/// ```
///
/// `c` is the current price (a JSON number, read exactly from its text), `t` the Unix time of
/// the quote, which becomes the snapshot's `asOf`. The other fields (change, high, low, open,
/// previous close) are not used. No currency is stated: the listing's, which is the asset's.
///
/// Finnhub's problems:
/// - `{"error":"Invalid API key."}` (with HTTP 401) or `{"error":"API limit reached. …"}` (429;
///   the fetch reports a 429 before the body is read): `.providerReported`;
/// - a quote of all zeros (`"c":0,…,"t":0`, with `null` changes), its answer for a symbol it does
///   not know: `.noPrice`; a zero `c` with a time is a zero price and refused like any other.
public struct FinnhubQuoteParser: Sendable {
    static let format = ProviderError.Format.finnhub

    public let symbol: String

    public init(symbol: String) {
        self.symbol = symbol
    }

    public func parse(_ data: Data) throws(ProviderError) -> ProviderPrice {
        let format = Self.format
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .object = json else { throw .notFormat(format, reason: "the top level is \(json.kind), expected an object") }
        if let error = json["error"] { throw .providerReported(format, status: nil, message: error.string ?? error.text) }
        guard let current = json["c"] else { throw .missingField(format, field: "c", at: nil) }
        guard let time = json["t"] else { throw .missingField(format, field: "t", at: nil) }
        guard let seconds = time.number else { throw .badDate(format, value: time.text, at: .path("t")) }
        if seconds == 0, current.number == 0 { throw .noPrice(format, symbol: symbol) }
        let price = try ProviderFields.price(current, symbol: symbol, format, at: .path("c"))
        let moment = try ProviderFields.unixTime(seconds, format, at: .path("t"))
        return ProviderPrice(key: symbol, price: price, asOf: moment.timestamp)
    }
}
