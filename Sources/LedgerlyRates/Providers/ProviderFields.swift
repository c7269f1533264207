import Foundation
import LedgerlyCore

/// The field checks all parsers share, each turning a core validation error into a
/// `ProviderError` that names the format and the place, so every provider refuses bad values
/// by the same rules (the core's) and reports them the same way.
enum ProviderFields {
    /// A normalized currency code (upper-cased, letters only) or `.unknownCurrency`.
    static func currency(_ raw: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> String {
        do { return try Currency(code: raw).code } catch { throw .unknownCurrency(format, code: raw, at: location) }
    }

    /// A rate from its decimal text, by the core's strict rule (`ExchangeRate(parsing:)`).
    ///
    /// A leading minus on an otherwise plain decimal is reported as "not positive" rather than
    /// "malformed": the provider did send a number, and the user should hear what was wrong with it.
    static func rate(_ text: String, pair: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> ExchangeRate {
        do {
            return try ExchangeRate(parsing: text)
        } catch {
            var reason = error
            if case .malformed = error, text.hasPrefix("-"), isPlainDecimal(text.utf8.dropFirst()) { reason = .notPositive(text) }
            throw .badRate(format, pair: pair, value: text, at: location, reason: reason)
        }
    }

    /// A rate from a JSON number, decoded exactly as `Decimal` from the number's text.
    static func rate(_ value: Decimal, pair: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> ExchangeRate {
        do { return try ExchangeRate(exactly: value) } catch {
            throw .badRate(format, pair: pair, value: value.description, at: location, reason: error)
        }
    }

    /// A `YYYY-MM-DD` day or `.badDate`.
    static func date(_ text: String, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> LedgerDate {
        guard let date = LedgerDate(text) else { throw .badDate(format, value: text, at: location) }
        return date
    }

    /// Unix seconds (as providers send them, a JSON integer) → the UTC moment as ISO 8601 and its
    /// UTC day. Integer arithmetic only: no `Date` (a `Double`), no formatter, no time zone.
    ///
    /// Accepts 1970-01-01 to 9999-12-31; anything else, or a fraction, is `.badDate`.
    static func unixTime(_ value: Decimal, _ format: ProviderError.Format, at location: ProviderError.Location?) throws(ProviderError) -> (timestamp: String, date: LedgerDate) {
        guard let seconds = Int64(value.description), (0...253_402_300_799).contains(seconds) else {
            throw .badDate(format, value: value.description, at: location)
        }
        let days = seconds / 86_400
        let second = seconds % 86_400
        let (year, month, day) = CivilCalendar.civilFromDays(days)
        func pad(_ number: Int64, _ width: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let dayText = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        guard let date = LedgerDate(dayText) else { throw .badDate(format, value: value.description, at: location) }
        let time = "\(pad(second / 3_600, 2)):\(pad(second % 3_600 / 60, 2)):\(pad(second % 60, 2))"
        return ("\(dayText)T\(time)Z", date)
    }

    /// Digits with at most one '.', not first or last: the syntax `ExchangeRate(parsing:)` accepts.
    static func isPlainDecimal<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".") else { return false }
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") { dots += 1 } else if byte < 0x30 || byte > 0x39 { return false }
        }
        return dots <= 1
    }
}
