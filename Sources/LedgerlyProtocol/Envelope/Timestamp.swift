import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import LedgerlyCore

/// ISO 8601 UTC timestamps with milliseconds, the only time format on the wire and in the database.
///
/// Reading is strict and pure (no Foundation formatter, which normalises "2026-02-30" to March 2nd
/// and accepts hour 25): exactly one of
///
/// - a **timestamp** `YYYY-MM-DDTHH:MM:SS(.fraction)?(Z|±HH:MM)`: a real calendar date (LedgerDate's
///   rules, years 0001–9999), hour 00–23, minute 00–59, second 00–59 (no leap second), a fraction
///   of 1 to 9 digits, a `Z` or an offset within ±23:59. Upper-case `T` and `Z` only, no space
///   separator, no offset-less local time. The store keeps milliseconds: digits past the third are
///   dropped (exact truncation towards the earlier millisecond, never rounding);
/// - a **date** `YYYY-MM-DD`, where a moment is accepted, standing for a whole day in UTC.
///
/// The instant is computed with exact integer arithmetic (days from the civil date) and must lie
/// between 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z once the offset is applied.
public enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    /// Formats from whole milliseconds (`Date` holds binary seconds, so "…42.313Z" must be rounded
    /// to the millisecond, not truncated, to read back exactly: rates compare times as text), with
    /// the same integer calendar arithmetic as `read` (proleptic Gregorian; Foundation's formatter
    /// switches to the Julian calendar before 1582, so its text would not read back the same).
    public static func string(from date: Date) -> String {
        string(milliseconds: Int64((date.timeIntervalSince1970 * 1_000).rounded()))
    }

    /// "YYYY-MM-DDTHH:MM:SS.mmmZ" for milliseconds since 1970-01-01T00:00:00Z.
    public static func string(milliseconds: Int64) -> String {
        let days = milliseconds >= 0 ? milliseconds / millisecondsPerDay : -((-milliseconds + millisecondsPerDay - 1) / millisecondsPerDay)
        let inDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = CivilCalendar.civilFromDays(days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1_000 % 60, 2)).\(pad(inDay % 1_000, 3))Z"
    }

    /// What a date alone (`YYYY-MM-DD`) stands for where a moment is accepted.
    public enum DayMeans: Sendable {
        /// 23:59:59.999 UTC that day: "the rate in force that day" (`convert`'s `at`).
        case endOfDay
        /// 00:00:00.000 UTC that day: "from that day on" (a rate's `asOf`, `alert.list`'s `since`).
        case startOfDay
    }

    /// Why a time was refused; reads as the end of a sentence ("…, got 'x': <description>").
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not the shape of a timestamp (or of a date, where one is accepted).
        case shape(datesAccepted: Bool)
        case notACalendarDate(String)
        case hour(Int), minute(Int), second(Int)
        case offset(String)
        case outOfRange

        public var description: String {
            switch self {
            case .shape(let dates):
                "write \(dates ? "a date YYYY-MM-DD or " : "")a time YYYY-MM-DDTHH:MM:SS with an optional fraction of 1 to 9 digits and Z or ±HH:MM"
            case .notACalendarDate(let date): "\(date) is not a calendar date"
            case .hour(let hour): "hour \(hour) is not 00 to 23"
            case .minute(let minute): "minute \(minute) is not 00 to 59"
            case .second(let second): "second \(second) is not 00 to 59 (leap seconds are not accepted)"
            case .offset(let offset): "offset \(offset) is not within ±23:59"
            case .outOfRange: "the time is outside the years 0001 to 9999 (UTC)"
            }
        }
    }

    public static let millisecondsPerDay: Int64 = 86_400_000
    /// 0001-01-01T00:00:00.000Z and one past 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    static let earliest = CivilCalendar.daysFromCivil(year: 1, month: 1, day: 1) * millisecondsPerDay
    static let pastLatest = CivilCalendar.daysFromCivil(year: 10_000, month: 1, day: 1) * millisecondsPerDay

    /// Strictly reads a timestamp, or, when `date` says what one stands for, also a date alone.
    /// Gives milliseconds since 1970-01-01T00:00:00Z (UTC).
    public static func milliseconds(_ text: String, date dayMeans: DayMeans?) throws(ParseError) -> Int64 {
        let bytes = Array(text.utf8)
        let shape = ParseError.shape(datesAccepted: dayMeans != nil)
        func digit(_ index: Int) -> Int? {
            guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
            return Int(bytes[index] - 0x30)
        }
        func number(_ start: Int, _ count: Int) throws(ParseError) -> Int {
            var value = 0
            for index in start..<(start + count) {
                guard let digit = digit(index) else { throw shape }
                value = value * 10 + digit
            }
            return value
        }
        func expect(_ index: Int, _ character: Character) throws(ParseError) {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { throw shape }
        }
        // The date: YYYY-MM-DD, then a real calendar date by LedgerDate's rules.
        guard bytes.count >= 10 else { throw shape }
        let year = try number(0, 4)
        try expect(4, "-")
        let month = try number(5, 2)
        try expect(7, "-")
        let day = try number(8, 2)
        let dateText = String(decoding: bytes[0..<10], as: UTF8.self)
        guard LedgerDate(dateText) != nil else { throw .notACalendarDate(dateText) }
        let days = CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        if bytes.count == 10 {
            guard let dayMeans else { throw shape }
            return days * millisecondsPerDay + (dayMeans == .endOfDay ? millisecondsPerDay - 1 : 0)
        }
        // The time: THH:MM:SS, an optional fraction, then Z or ±HH:MM, and nothing after.
        try expect(10, "T")
        let hour = try number(11, 2)
        try expect(13, ":")
        let minute = try number(14, 2)
        try expect(16, ":")
        let second = try number(17, 2)
        var index = 19
        var fractionMilliseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while let digit = digit(index) {
                if count < 3 { fractionMilliseconds = fractionMilliseconds * 10 + digit }
                count += 1
                index += 1
            }
            guard (1...9).contains(count) else { throw shape }
            for _ in min(count, 3)..<3 { fractionMilliseconds *= 10 }
        }
        var offsetMinutes = 0
        guard index < bytes.count else { throw shape }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let offsetHours = try number(index + 1, 2)
            try expect(index + 3, ":")
            let offsetRest = try number(index + 4, 2)
            guard offsetHours <= 23, offsetRest <= 59 else {
                throw .offset(String(decoding: bytes[index..<(index + 6)], as: UTF8.self))
            }
            offsetMinutes = sign * (offsetHours * 60 + offsetRest)
            index += 6
        default:
            throw shape
        }
        guard index == bytes.count else { throw shape }
        guard hour <= 23 else { throw .hour(hour) }
        guard minute <= 59 else { throw .minute(minute) }
        guard second <= 59 else { throw .second(second) }
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        let result = seconds * 1_000 + Int64(fractionMilliseconds)
        guard result >= earliest, result < pastLatest else { throw .outOfRange }
        return result
    }

    /// Strictly reads a timestamp or, where `date` says what it stands for, a date alone.
    public static func read(_ text: String, date dayMeans: DayMeans?) throws(ParseError) -> Date {
        Date(timeIntervalSince1970: Double(try milliseconds(text, date: dayMeans)) / 1_000)
    }

    /// A moment: a timestamp, or a date "YYYY-MM-DD" standing for the end of that day in UTC (the
    /// rate in force that day). Strict; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        try? read(text, date: .endOfDay)
    }

    /// A timestamp only (no date alone). Strict; nil for anything else.
    public static func parseTimestamp(_ text: String) -> Date? {
        try? read(text, date: nil)
    }


    /// Today's date in the local time zone as "YYYY-MM-DD": the default date of a new transaction.
    /// The zone is the C library's (`TZ`, else /etc/localtime), as Foundation's `TimeZone.current`
    /// reads it; FoundationEssentials alone knows no zone but GMT (D380).
    public static func today(at now: Date = Date()) -> String {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var local = tm()
        tzset()
        guard localtime_r(&seconds, &local) != nil else { return String(string(from: now).prefix(10)) }
        let year = Int(local.tm_year) + 1900, month = Int(local.tm_mon) + 1, day = Int(local.tm_mday)
        func padded(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
