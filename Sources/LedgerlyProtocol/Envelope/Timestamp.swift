import Foundation

/// ISO 8601 UTC timestamps with milliseconds, the only time format on the wire and in the database.
public enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
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
    public static func today() -> String {
        Date().formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
    }
}
