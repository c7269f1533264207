import Foundation

/// ISO 8601 UTC timestamps with milliseconds, the only time format on the wire and in the database.
public enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    /// Today's date in the local time zone as "YYYY-MM-DD": the default date of a new transaction.
    public static func today() -> String {
        Date().formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
    }
}
