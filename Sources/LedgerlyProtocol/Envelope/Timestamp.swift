import Foundation

/// ISO 8601 UTC timestamps with milliseconds, the only time format on the wire and in the database.
public enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    /// Formats from whole milliseconds: `Date` holds binary seconds and the formatter truncates,
    /// so formatting a parsed "…42.313Z" directly gives "…42.312Z" for about half of all values,
    /// and stored times must read back exactly (rates compare them as text).
    public static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        let seconds = (milliseconds / 1_000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1_000)
        let whole = Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - String(fraction).count) + String(fraction) + "Z"
    }

    /// Reads an ISO 8601 timestamp (with or without fractional seconds), or a plain date
    /// "YYYY-MM-DD", which stands for the end of that day in UTC (the rate in force that day).
    public static func parse(_ text: String) -> Date? {
        if text.count == 10, let day = try? Date.ISO8601FormatStyle().year().month().day().parse(text) {
            return day.addingTimeInterval(86_400 - 0.001)
        }
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// Today's date in the local time zone as "YYYY-MM-DD": the default date of a new transaction.
    public static func today(at now: Date = Date()) -> String {
        now.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
    }
}
