import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// A file of prices the user drops into `<home>/dropfolder/prices/` (D155): CSV with a header.
///
/// ```
/// # closing prices from my broker's statement
/// symbol,price,currency,asOf
/// VWRL,104.12,EUR,2026-11-20
/// AAPL,189.25,USD,2026-11-20T21:00:00Z
/// GOLDFUND,12.5,,
/// ```
///
/// The header names the four columns `symbol`, `price`, `currency`, `asOf` (any order, any case;
/// all four are required, so a file says what it means). `currency` may be left empty (the
/// asset's quote currency) and so may `asOf` (the file's modification time); a date alone is
/// the start of that day in UTC, as for rates (D87). Comments (`#`), blank lines, a byte-order
/// mark, CRLF and double quotes around a value are accepted, as in the rates drop folder.
///
/// Everything else is refused with the line to fix, and nothing from the file is used: a price
/// that is not a positive decimal in the rate range, a bad code or time, an unknown column, the
/// same symbol twice for one moment. Whether a symbol is an asset is the feed's check (it needs
/// the store's asset list).
public struct PriceDropFolderParser: Sendable {
    static let columns = ["symbol", "price", "currency", "asof"]
    static let format = ProviderError.Format.priceDropFolderCSV

    public init() {}

    public func parse(_ data: Data) throws(ProviderError) -> [PriceFileLine] {
        let format = Self.format
        let body = try ProviderDocument.text(data, format: format)
        if let first = ProviderDocument.firstSignificantByte(body), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            throw .notFormat(format, reason: "this is JSON; a price file is CSV with the header symbol,price,currency,asOf")
        }
        let text = String(decoding: body, as: UTF8.self)
        var header: [String: Int]?
        var seen = Set<String>()
        var result: [PriceFileLine] = []
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
            let symbol = fields[columns["symbol"]!]
            guard !symbol.isEmpty else { throw .missingField(format, field: "symbol", at: location) }
            guard symbol.count <= 40, !symbol.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) || $0 == " " }) else {
                throw .malformed(format, detail: "'\(symbol.prefix(40))' is not a symbol (no spaces, at most 40 characters)", at: location)
            }
            let price = try ProviderFields.price(fields[columns["price"]!], symbol: symbol, format, at: location)
            let rawCurrency = fields[columns["currency"]!]
            let currency = rawCurrency.isEmpty ? nil : try ProviderFields.currency(rawCurrency, format, at: location)
            let rawAsOf = fields[columns["asof"]!]
            var asOf: String?
            if !rawAsOf.isEmpty {
                do {
                    asOf = Timestamp.string(milliseconds: try Timestamp.milliseconds(rawAsOf, date: .startOfDay))
                } catch {
                    throw .malformed(format, detail: "asOf '\(rawAsOf.prefix(40))': \(error)", at: location)
                }
            }
            let key = "\(symbol.uppercased())@\(asOf ?? "")"
            guard seen.insert(key).inserted else {
                throw .malformed(format, detail: "\(symbol) is given twice for \(asOf ?? "the same moment"); keep one", at: location)
            }
            result.append(PriceFileLine(line: number, symbol: symbol, price: price, currency: currency, asOf: asOf))
        }
        guard header != nil else { throw .missingField(format, field: "header line (symbol,price,currency,asOf)", at: nil) }
        guard !result.isEmpty else { throw .noRates(format) }
        return result
    }

    /// Column name → field index; all four columns are required.
    private static func header(_ fields: [String], line: Int) throws(ProviderError) -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            let name = field.lowercased()
            guard Self.columns.contains(name) else {
                throw .malformed(format, detail: "unknown column '\(field.prefix(40))'; the header is symbol,price,currency,asOf", at: .line(line))
            }
            guard columns.updateValue(index, forKey: name) == nil else {
                throw .malformed(format, detail: "column '\(field)' appears twice", at: .line(line))
            }
        }
        for (required, shown) in zip(Self.columns, ["symbol", "price", "currency", "asOf"]) where columns[required] == nil {
            throw .missingField(format, field: shown, at: .line(line))
        }
        return columns
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
