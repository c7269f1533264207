import Foundation
import LedgerlyCore

/// Alpha Vantage's `GLOBAL_QUOTE` (`/query?function=GLOBAL_QUOTE&symbol=IBM&apikey=…`), one
/// symbol per request:
///
/// ```
/// {"Global Quote": {"01. symbol": "IBM", "02. open": "229.8000", …, "05. price": "231.4500",
///   "06. volume": "3421876", "07. latest trading day": "2026-11-20", "08. previous close": …}}
/// ```
///
/// Numbers are strings with four decimals; the price is `05. price`, read from its text by the
/// rate rule. `07. latest trading day` is the day the price is for (the refresher turns it into
/// a moment, D152). The document states no currency: the price is in the listing's currency,
/// which is the asset's quote currency.
///
/// Alpha Vantage answers most problems with HTTP 200 and a document of its own, each of which
/// throws instead of yielding a price:
/// - `{"Error Message": "Invalid API call. …"}` (an unknown function, a bad key): `.providerReported`;
/// - `{"Note": "Thank you for using Alpha Vantage! Our standard API call frequency is …"}` and
///   `{"Information": "… our standard API rate limit is 25 requests per day …"}`: `.limitReported`;
/// - `{"Global Quote": {}}`, its answer for a symbol it does not know: `.noPrice`.
public struct AlphaVantageQuoteParser: Sendable {
    static let format = ProviderError.Format.alphaVantage
    /// The keys Alpha Vantage puts its own messages under, instead of data.
    static let limitKeys = ["Note", "Information"]

    /// The symbol the request asked for; the document must be about it.
    public let symbol: String

    public init(symbol: String) {
        self.symbol = symbol
    }

    public func parse(_ data: Data) throws(ProviderError) -> ProviderPrice {
        let format = Self.format
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .object = json else { throw .notFormat(format, reason: "the top level is \(json.kind), expected an object") }
        if let message = json["Error Message"] {
            throw .providerReported(format, status: nil, message: message.string ?? message.text)
        }
        for key in Self.limitKeys {
            if let message = json[key] { throw .limitReported(format, message: message.string ?? message.text) }
        }
        guard let quote = json["Global Quote"] else { throw .missingField(format, field: "Global Quote", at: nil) }
        guard case .object(let fields) = quote else {
            throw .malformed(format, detail: "'Global Quote' is \(quote.kind), expected an object", at: .path("Global Quote"))
        }
        guard !fields.isEmpty else { throw .noPrice(format, symbol: symbol) }
        func text(_ key: String) throws(ProviderError) -> String {
            let location = ProviderError.Location.path("Global Quote.\(key)")
            guard let value = fields[key] else { throw .missingField(format, field: key, at: .path("Global Quote")) }
            guard let text = value.string else { throw .malformed(format, detail: "'\(key)' is \(value.kind), expected a string", at: location) }
            return text
        }
        let answered = try text("01. symbol")
        guard answered.caseInsensitiveCompare(symbol) == .orderedSame else {
            throw .malformed(format, detail: "the quote is for '\(answered)', the request asked for '\(symbol)'", at: .path("Global Quote.01. symbol"))
        }
        let price = try ProviderFields.price(try text("05. price"), symbol: symbol, format, at: .path("Global Quote.05. price"))
        let day = try ProviderFields.date(try text("07. latest trading day"), format, at: .path("Global Quote.07. latest trading day"))
        return ProviderPrice(key: symbol, price: price, day: day)
    }

    /// Whether a limit message is about the day's quota rather than the request frequency: then
    /// asking again today is pointless, and the quota is counted as used up. The older `Note`
    /// names both limits ("5 calls per minute and 500 calls per day") whichever was hit, so a
    /// message that mentions a per-minute limit is taken as the frequency one: the backoff
    /// handles that, and the day's count still bounds the asking.
    public static func isDailyLimit(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return (lowered.contains("per day") || lowered.contains("daily")) && !lowered.contains("per minute")
    }
}
