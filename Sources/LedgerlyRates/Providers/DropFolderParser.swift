import Foundation
import LedgerlyCore

/// A file of parallel-market (or any hand-collected) rates that the user drops into the watched
/// folder, as CSV or JSON. Rates are units of `quote` per 1 `base`.
///
/// CSV:
/// ```
/// # comments start with '#', here or after a value
/// base,quote,rate,date
/// USD,ARS,1185.50,2026-11-20
/// ```
/// The header comes first (after comments and blank lines) and names the columns in any order:
/// `base`, `quote`, `rate` and optionally `date`. Spaces around values, a UTF-8 byte-order mark,
/// CRLF line ends and double quotes around a value (as spreadsheets export) are accepted.
///
/// JSON: `[{"base":"USD","quote":"ARS","rate":"1185.50","date":"2026-11-20"}, …]`, `rate` as a
/// string or a number, `date` optional.
///
/// Choices, explicitly: this is a person's file, so it is held to the same strict rules as a
/// feed but every error points at the line (CSV, 1-based as an editor shows it) or the index
/// (JSON, 0-based) to fix. A bad rate ("1,185.50", "-1620", "N/A"), an unknown column or key, a
/// pair from a currency to itself or the same pair twice for one day throws; nothing from the
/// file is used until it is all good. An empty date means "no date": the caller stamps it.
public struct DropFolderParser: Sendable {
    static let columns = ["base", "quote", "rate", "date"]

    public init() {}

    /// CSV or JSON, told apart by the first character: `[` or `{` is JSON.
    public func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let text = try ProviderDocument.text(data, format: .dropFolderCSV)
        let first = ProviderDocument.firstSignificantByte(text)
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? try parseJSON(text) : try parseCSV(text)
    }

    public func parseCSV(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.dropFolderCSV
        let text = String(decoding: try ProviderDocument.text(data, format: format), as: UTF8.self)
        var header: [String: Int]?
        var seen = Set<String>()
        var result: [ProviderRate] = []
        // Split on "\n" only ("\r\n" is one Character in Swift, so split on the scalar).
        for (offset, rawLine) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(Self.clean)
            if fields.allSatisfy(\.isEmpty) { continue }
            guard let columns = header else {
                header = try Self.header(fields, line: number)
                continue
            }
            let location = ProviderError.Location.line(number)
            guard fields.count == columns.count else {
                throw .malformed(format, detail: "\(fields.count) values, the header has \(columns.count) columns", at: location)
            }
            let rate = try Self.rate(base: fields[columns["base"]!], quote: fields[columns["quote"]!], rate: .string(fields[columns["rate"]!]),
                                     date: columns["date"].map { fields[$0] }, format, at: location)
            let key = "\(rate.base)/\(rate.quote)@\(rate.date?.description ?? "")"
            guard seen.insert(key).inserted else {
                throw .duplicate(format, pair: "\(rate.base)/\(rate.quote)", date: rate.date?.description, at: location)
            }
            result.append(rate)
        }
        guard header != nil else { throw .missingField(format, field: "header line (base,quote,rate[,date])", at: nil) }
        guard !result.isEmpty else { throw .noRates(format) }
        return result
    }

    public func parseJSON(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.dropFolderJSON
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .array(let entries) = json else {
            throw .notFormat(format, reason: "the top level is \(json.kind), expected an array of {\"base\",\"quote\",\"rate\",\"date\"} objects")
        }
        var seen = Set<String>()
        var result: [ProviderRate] = []
        for (index, entry) in entries.enumerated() {
            let location = ProviderError.Location.index(index)
            guard case .object(let fields) = entry else { throw .malformed(format, detail: "\(entry.kind), expected an object", at: location) }
            if let unknown = fields.keys.sorted().first(where: { !Self.columns.contains($0) }) {
                throw .malformed(format, detail: "unknown key '\(unknown)' (keys are base, quote, rate, date)", at: location)
            }
            func text(_ key: String) throws(ProviderError) -> String {
                guard let value = fields[key] else { throw .missingField(format, field: key, at: location) }
                guard let string = value.string else { throw .malformed(format, detail: "'\(key)' is \(value.kind), expected a string", at: location) }
                return string
            }
            guard let rateValue = fields["rate"] else { throw .missingField(format, field: "rate", at: location) }
            var date: String?
            if let value = fields["date"], value != .null { date = try text("date") }
            let rate = try Self.rate(base: text("base"), quote: text("quote"), rate: rateValue, date: date, format, at: location)
            let key = "\(rate.base)/\(rate.quote)@\(rate.date?.description ?? "")"
            guard seen.insert(key).inserted else {
                throw .duplicate(format, pair: "\(rate.base)/\(rate.quote)", date: rate.date?.description, at: location)
            }
            result.append(rate)
        }
        guard !result.isEmpty else { throw .noRates(format) }
        return result
    }

    /// Column name → field index; `base`, `quote` and `rate` are required, `date` optional.
    private static func header(_ fields: [String], line: Int) throws(ProviderError) -> [String: Int] {
        let format = ProviderError.Format.dropFolderCSV
        var columns: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            let name = field.lowercased()
            guard Self.columns.contains(name) else {
                throw .malformed(format, detail: "unknown column '\(field)'; the header is base,quote,rate and optionally date", at: .line(line))
            }
            guard columns.updateValue(index, forKey: name) == nil else {
                throw .malformed(format, detail: "column '\(name)' appears twice", at: .line(line))
            }
        }
        for required in ["base", "quote", "rate"] where columns[required] == nil {
            throw .missingField(format, field: required, at: .line(line))
        }
        return columns
    }

    private static func rate(base rawBase: String, quote rawQuote: String, rate value: ProviderJSON, date rawDate: String?,
                             _ format: ProviderError.Format, at location: ProviderError.Location) throws(ProviderError) -> ProviderRate {
        let base = try ProviderFields.currency(rawBase, format, at: location)
        let quote = try ProviderFields.currency(rawQuote, format, at: location)
        guard base != quote else { throw .samePair(format, currency: base, at: location) }
        let pair = "\(base)/\(quote)"
        let rate: ExchangeRate
        switch value {
        case .string(let text): rate = try ProviderFields.rate(text, pair: pair, format, at: location)
        case .number(let number): rate = try ProviderFields.rate(number, pair: pair, format, at: location)
        default: throw .badRate(format, pair: pair, value: value.text, at: location, reason: .malformed(value.text))
        }
        var date: LedgerDate?
        if let rawDate, !rawDate.isEmpty { date = try ProviderFields.date(rawDate, format, at: location) }
        return ProviderRate(base: base, quote: quote, rate: rate, date: date)
    }

    /// A CSV value without surrounding spaces, "\r" and double quotes.
    private static func clean(_ field: Substring) -> String {
        var value = field.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return value
    }
}
