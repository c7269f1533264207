import LedgerlyCore

/// Why a provider's document produced no rates. Each case reads as one sentence in a terminal
/// (`ledgerly status`, the rates service's log), starting with the format that was expected.
///
/// The rule behind every case: a parser either returns rates that are all good or throws; it
/// never returns the good part of a bad document. A document that is wrong in one place (a
/// negative rate, a cut-off download) is not trusted in the others, and the previous rates
/// stay in use, marked stale, until the provider sends a good document again.
public enum ProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document is empty or only whitespace (a 200 with no body, a zero-byte file).
    case empty(Format)
    /// An HTML page where data was expected: a proxy's 502, a captive portal, a login page.
    /// `title` is the page's `<title>`, which usually says what went wrong.
    case htmlPage(Format, title: String?)
    /// The document is some other kind of thing: binary data, JSON where XML was expected,
    /// XML with a different root element. `reason` says what was found instead.
    case notFormat(Format, reason: String)
    /// The document is the right kind but broken at `location`: a syntax error, a cut-off
    /// download, a row with the wrong number of fields, a field of the wrong type.
    case malformed(Format, detail: String, at: Location?)
    /// The provider answered with its own error body (rate limit, bad key, unknown date).
    case providerReported(Format, status: Int?, message: String)
    /// A field the format requires is absent.
    case missingField(Format, field: String, at: Location?)
    /// A currency code that is not letters only, 1 to 20 of them.
    case unknownCurrency(Format, code: String, at: Location?)
    /// A CoinGecko coin id the caller's id → symbol table does not have.
    case unknownCoin(Format, id: String)
    /// A rate that is not a usable positive decimal. `pair` is "BASE/QUOTE", `value` the text
    /// the provider sent, `reason` the check it failed.
    case badRate(Format, pair: String, value: String, at: Location?, reason: RateError)
    /// A date or timestamp that is not a real calendar day.
    case badDate(Format, value: String, at: Location?)
    /// A rate from a currency to itself (only the drop folder can say this; feeds never do).
    case samePair(Format, currency: String, at: Location?)
    /// The same pair twice for the same day: there is no way to know which one is right.
    case duplicate(Format, pair: String, date: String?, at: Location?)
    /// The document is well-formed but holds no rates at all.
    case noRates(Format)
    /// The provider said its request limit is reached, in a document of its own with HTTP 200
    /// (Alpha Vantage's `Note` and `Information`): not data, and not the request's fault.
    case limitReported(Format, message: String)
    /// The provider has no price for a symbol it was asked for (Alpha Vantage's empty
    /// `Global Quote`, Finnhub's all-zero quote): usually a symbol it does not know.
    case noPrice(Format, symbol: String)
    /// A price that is not a usable positive decimal: `value` is the text the provider sent,
    /// `reason` the check it failed (prices follow the rate rule: 10⁻¹² to 10¹², 18 digits).
    case badPrice(Format, symbol: String, value: String, at: Location?, reason: RateError)

    /// The document kinds the parsers read; named in every message so the user knows which
    /// provider to look at.
    public enum Format: String, Hashable, Sendable, CustomStringConvertible {
        case ecbXML = "ECB XML"
        case ecbCSV = "ECB CSV"
        case ratesAPI = "rates API JSON"
        case coinGecko = "CoinGecko JSON"
        case dropFolderCSV = "drop-folder CSV"
        case dropFolderJSON = "drop-folder JSON"
        case alphaVantage = "Alpha Vantage JSON"
        case finnhub = "Finnhub JSON"
        case priceDropFolderCSV = "price drop-folder CSV"

        public var description: String { rawValue }
    }

    /// Where in the document: a 1-based line (text formats, as an editor numbers them), a
    /// 0-based index into a JSON array (as `jq '.[2]'` finds it), or a path of JSON keys.
    public enum Location: Hashable, Sendable, CustomStringConvertible {
        case line(Int)
        case index(Int)
        case path(String)

        public var description: String {
            switch self {
            case .line(let line): "line \(line)"
            case .index(let index): "entry at index \(index)"
            case .path(let path): "'\(path)'"
            }
        }
    }

    public var format: Format {
        switch self {
        case .empty(let format), .htmlPage(let format, _), .notFormat(let format, _), .malformed(let format, _, _),
             .providerReported(let format, _, _), .missingField(let format, _, _), .unknownCurrency(let format, _, _),
             .unknownCoin(let format, _), .badRate(let format, _, _, _, _), .badDate(let format, _, _),
             .samePair(let format, _, _), .duplicate(let format, _, _, _), .noRates(let format),
             .limitReported(let format, _), .noPrice(let format, _), .badPrice(let format, _, _, _, _):
            format
        }
    }

    public var description: String {
        func place(_ location: Location?) -> String { location.map { " at \($0)" } ?? "" }
        switch self {
        case .empty(let format):
            return "empty \(format) document: the provider sent nothing"
        case .htmlPage(let format, let title):
            let what = title.map { "an HTML page (\"\($0)\")" } ?? "an HTML page"
            return "not \(format): got \(what); the provider is down or the address is wrong"
        case .notFormat(let format, let reason):
            return "not \(format): \(reason)"
        case .malformed(let format, let detail, let location):
            return "malformed \(format)\(place(location)): \(detail)"
        case .providerReported(let format, let status, let message):
            let code = status.map { " \($0)" } ?? ""
            return "\(format): the provider answered with error\(code): \(message)"
        case .missingField(let format, let field, let location):
            return "\(format): missing field '\(field)'\(place(location))"
        case .unknownCurrency(let format, let code, let location):
            return "\(format): '\(code)'\(place(location)) is not a currency code (letters only, 1 to \(Currency.maximumCodeLength))"
        case .unknownCoin(let format, let id):
            return "\(format): coin id '\(id)' has no symbol; add it to the coin table"
        case .badRate(let format, let pair, let value, let location, let reason):
            return "\(format): bad rate for \(pair)\(place(location)): '\(value)': \(reason)"
        case .badDate(let format, let value, let location):
            return "\(format): '\(value)'\(place(location)) is not a date (expected YYYY-MM-DD)"
        case .samePair(let format, let currency, let location):
            return "\(format): a rate from \(currency) to \(currency)\(place(location)); base and quote must differ"
        case .duplicate(let format, let pair, let date, let location):
            let day = date.map { " on \($0)" } ?? ""
            return "\(format): \(pair)\(day) is given twice (again\(place(location))); keep one"
        case .noRates(let format):
            return "\(format): the document holds no rates"
        case .limitReported(let format, let message):
            return "\(format): the provider's request limit is reached: \(message)"
        case .noPrice(let format, let symbol):
            return "\(format): no price for '\(symbol)'; the provider does not know the symbol"
        case .badPrice(let format, let symbol, let value, let location, let reason):
            let why: String = switch reason {
            case .malformed: "not a plain positive decimal"
            case .notPositive: "a price must be greater than zero"
            case .outOfRange: "outside the accepted range of prices (\(ExchangeRate.rangeDescription))"
            case .tooPrecise: "more than \(ExchangeRate.maximumDigits) significant digits"
            }
            return "\(format): bad price for \(symbol)\(place(location)): '\(value)': \(why)"
        }
    }
}
