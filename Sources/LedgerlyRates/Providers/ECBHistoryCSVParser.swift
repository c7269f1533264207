import Foundation
import LedgerlyCore

/// The European Central Bank's reference rates as CSV: `eurofxref-hist.csv` (every day since
/// 1999, newest first, ~7,100 rows × 42 currencies) and the one-day `eurofxref.csv`.
///
/// ```
/// Date,USD,JPY,BGN,CYP,…,ZAR,
/// 2026-10-30,1.1172,175.68,N/A,N/A,…,18.6455,
/// ```
///
/// The header and every row end with a comma (an empty last column). The daily file writes
/// "30 October 2026" and a space after each comma; both spellings are read. Every rate is units of
/// the currency per 1 EUR, so `base` is always "EUR".
///
/// Choices for values, explicitly:
/// - "N/A" (and an empty cell) is skipped: it is how the ECB says there was no reference rate
///   for that currency that day (not yet published in 1999, or discontinued, e.g. CYP, RUB).
/// - Anything else that is not a positive plain decimal in the accepted range (zero, negative,
///   "1,12", "-") throws `.badRate` naming the currency, the value and the line: a feed that
///   sends one wrong number is not trusted for the others.
/// - Every row must have exactly as many fields as the header. Because the ECB ends rows with a
///   comma, this also catches a download cut off in the middle of the last number, which would
///   otherwise read as a valid but wrong rate.
///
/// Speed: the full history is about 220,000 rates. Rows are scanned as bytes and each number is
/// built directly from its digits (`Decimal(sign:exponent:significand:)`), with no `String` per
/// cell on the good path; only an unusual cell goes through `ExchangeRate(parsing:)`, which is
/// also what produces the error for a bad one. `DayReader`/`forEachDay` hand out one day at a
/// time so an importer can write in batches without holding every rate.
public struct ECBHistoryCSVParser: Sendable {
    public static let base = "EUR"

    public init() {}

    /// One row: a day and its rates (only the currencies that had a rate that day).
    public struct Day: Sendable, Hashable {
        public let date: LedgerDate
        public let rates: [ProviderRate]
    }

    /// Every rate in the file, in file order (newest day first for the ECB's file).
    public func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        var reader = try days(in: data)
        var rates: [ProviderRate] = []
        while let day = try reader.next() { rates.append(contentsOf: day.rates) }
        guard !rates.isEmpty else { throw .noRates(.ecbCSV) }
        return rates
    }

    /// Calls `body` once per row, in file order. Throws `ProviderError` for bad data (rows before
    /// the bad one have already been handed out: a caller that must be all-or-nothing writes
    /// inside one transaction and rolls back), or whatever `body` throws.
    public func forEachDay(in data: Data, _ body: (Day) throws -> Void) throws {
        var reader = try days(in: data)
        var any = false
        while let day = try reader.next() {
            any = any || !day.rates.isEmpty
            try body(day)
        }
        guard any else { throw ProviderError.noRates(.ecbCSV) }
    }

    /// A reader positioned after the header; `next()` parses one row per call.
    public func days(in data: Data) throws(ProviderError) -> DayReader {
        try DayReader(Array(ProviderDocument.text(data, format: .ecbCSV)))
    }

    /// Pull-style access to the rows (a `Sequence` cannot throw typed errors from `next()`).
    public struct DayReader: Sendable {
        /// The currency columns in header order.
        public let currencies: [String]
        /// The 1-based line of the row `next()` returned last (the header's line before any).
        public private(set) var line = 0

        private let bytes: [UInt8]
        private var position = 0
        /// One entry per header field: `nil` for the date column and the trailing empty column.
        private let columns: [String?]
        private var seenDates: Set<LedgerDate> = []
        private static let format = ProviderError.Format.ecbCSV

        init(_ bytes: [UInt8]) throws(ProviderError) {
            self.bytes = bytes
            var position = 0
            var line = 0
            var header: [Range<Int>] = []
            while header.isEmpty, let fields = Self.nextLine(bytes, &position, &line) { header = fields }
            let names = header.map { String(decoding: bytes[$0], as: UTF8.self) }
            guard let first = names.first, first.caseInsensitiveCompare("Date") == .orderedSame else {
                throw .notFormat(Self.format, reason: "the first header column is '\(names.first?.prefix(40) ?? "")', expected 'Date'")
            }
            var columns: [String?] = [nil]
            for (index, name) in names.enumerated().dropFirst() {
                if name.isEmpty {
                    guard index == names.count - 1 else {
                        throw .malformed(Self.format, detail: "header column \(index + 1) has no currency", at: .line(line))
                    }
                    columns.append(nil)
                    continue
                }
                let code = try ProviderFields.currency(name, Self.format, at: .line(line))
                guard !columns.contains(code) else {
                    throw .malformed(Self.format, detail: "\(code) appears twice in the header", at: .line(line))
                }
                columns.append(code)
            }
            guard columns.contains(where: { $0 != nil }) else { throw .notFormat(Self.format, reason: "the header names no currencies") }
            self.columns = columns
            self.currencies = columns.compactMap { $0 }
            self.position = position
            self.line = line
        }

        /// The next row, or `nil` at the end of the file.
        public mutating func next() throws(ProviderError) -> Day? {
            let bytes = self.bytes
            var fields: [Range<Int>] = []
            repeat {
                guard let row = Self.nextLine(bytes, &position, &line) else { return nil }
                fields = row
            } while fields.isEmpty
            let location = ProviderError.Location.line(line)
            guard fields.count == columns.count else {
                throw .malformed(Self.format, detail: "the row has \(fields.count) fields, the header \(columns.count) (cut-off or shifted row?)", at: location)
            }
            let date = try Self.date(bytes[fields[0]], at: location)
            guard seenDates.insert(date).inserted else { throw .duplicate(Self.format, pair: "the row", date: date.description, at: location) }
            var rates: [ProviderRate] = []
            rates.reserveCapacity(columns.count)
            for index in 1..<fields.count {
                let field = fields[index]
                guard let quote = columns[index] else {
                    guard field.isEmpty else { throw .malformed(Self.format, detail: "a value in the trailing column, under no currency", at: location) }
                    continue
                }
                if field.isEmpty || bytes[field].elementsEqual("N/A".utf8) { continue }
                let rate: ExchangeRate
                if let fast = Self.rate(bytes, field) {
                    rate = fast
                } else {
                    let text = String(decoding: bytes[field], as: UTF8.self)
                    rate = try ProviderFields.rate(text, pair: "\(ECBHistoryCSVParser.base)/\(quote)", Self.format, at: location)
                }
                rates.append(ProviderRate(base: ECBHistoryCSVParser.base, quote: quote, rate: rate, date: date))
            }
            return Day(date: date, rates: rates)
        }

        /// The comma-separated fields (spaces trimmed) of the next line, advancing `position` and
        /// `line`; `[]` for a blank line, `nil` at the end.
        private static func nextLine(_ bytes: [UInt8], _ position: inout Int, _ line: inout Int) -> [Range<Int>]? {
            guard position < bytes.count else { return nil }
            line += 1
            return bytes.withUnsafeBufferPointer { buffer in
                var end = position
                while end < buffer.count, buffer[end] != 0x0A { end += 1 }
                let next = end + 1
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                var fields: [Range<Int>] = []
                var start = position
                var blank = true
                var index = position
                while index <= end {
                    if index == end || buffer[index] == UInt8(ascii: ",") {
                        var low = start, high = index
                        while low < high, buffer[low] == 0x20 || buffer[low] == 0x09 { low += 1 }
                        while high > low, buffer[high - 1] == 0x20 || buffer[high - 1] == 0x09 { high -= 1 }
                        if low < high || index < end { blank = false }
                        fields.append(low..<high)
                        start = index + 1
                    }
                    index += 1
                }
                position = next
                return blank ? [] : fields
            }
        }

        /// A positive plain decimal of at most 18 significant digits, built from its bytes, or
        /// `nil` for anything else (the caller then takes the slow, error-reporting path).
        private static func rate(_ bytes: [UInt8], _ field: Range<Int>) -> ExchangeRate? {
            bytes.withUnsafeBufferPointer { buffer in
                guard buffer[field.lowerBound] != UInt8(ascii: "."), buffer[field.upperBound - 1] != UInt8(ascii: ".") else { return nil }
                var significand: UInt64 = 0
                var digits = 0
                var fraction = 0
                var dot = false
                for index in field {
                    let byte = buffer[index]
                    if byte == UInt8(ascii: ".") {
                        if dot { return nil }
                        dot = true
                        continue
                    }
                    let digit = byte &- 0x30
                    guard digit <= 9 else { return nil }
                    if dot { fraction += 1 }
                    if significand == 0 && digit == 0 { continue }
                    digits += 1
                    guard digits <= ExchangeRate.maximumDigits else { return nil }
                    significand = significand * 10 + UInt64(digit)
                }
                guard significand > 0, fraction <= ExchangeRate.maximumDigits else { return nil }
                return try? ExchangeRate(exactly: Decimal(sign: .plus, exponent: -fraction, significand: Decimal(significand)))
            }
        }

        private static let months = ["january", "february", "march", "april", "may", "june", "july",
                                     "august", "september", "october", "november", "december"]

        /// "2026-10-30" (historical file) or "30 October 2026" (daily file).
        private static func date(_ field: ArraySlice<UInt8>, at location: ProviderError.Location) throws(ProviderError) -> LedgerDate {
            let text = String(decoding: field, as: UTF8.self)
            if let date = LedgerDate(text) { return date }
            let parts = text.split(separator: " ")
            if parts.count == 3, parts[0].count <= 2, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].lowercased()),
               parts[2].count == 4, let year = Int(parts[2]) {
                let iso = String(format: "%04d-%02d-%02d", year, month + 1, day)
                if let date = LedgerDate(iso) { return date }
            }
            throw .badDate(format, value: text, at: location)
        }
    }
}
