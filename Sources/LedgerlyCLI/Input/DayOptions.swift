import ArgumentParser
import FoundationEssentials
import LedgerlyCore

/// The command-line side of `DayText`: each option's text read as a day (or a month) when the
/// arguments are parsed, so a day that is not one is refused naming the option, before any
/// service is asked.
enum DayOptions {
    /// What `--date` options take, for their help.
    static let dayHelp = "YYYY-MM-DD, or today, yesterday, -3d, -2w, 2026/11/23, or the locale's 23.11.2026"

    static var current: DayText { DayText.current(environment: ProcessInfo.processInfo.environment) }

    /// An option's value read by `read`; a value that is the next option (`--date --wallet X`:
    /// the options take a value starting with `-`, for `-3d`) says that the value is missing.
    private static func reading<T>(_ text: String, _ read: (DayText) throws(DayTextError) -> T) throws -> T {
        guard !text.hasPrefix("--") else { throw ValidationError("a day is missing before \(text)") }
        do { return try read(current) } catch { throw ValidationError(error.description) }
    }

    /// A `--date`: the day as the store takes it.
    static func day(_ text: String) throws -> String {
        try reading(text) { (dayText: DayText) throws(DayTextError) in try dayText.day(text).description }
    }

    /// A `--from` of days: a day, or a month's first day.
    static func rangeStart(_ text: String) throws -> String {
        try reading(text) { (dayText: DayText) throws(DayTextError) in try dayText.rangeStart(text).description }
    }

    /// A `--to` of days: a day, or a month's last day.
    static func rangeEnd(_ text: String) throws -> String {
        try reading(text) { (dayText: DayText) throws(DayTextError) in try dayText.rangeEnd(text).description }
    }

    /// A `--from`/`--to` of months: a month, or the month of a day.
    static func month(_ text: String) throws -> String {
        try reading(text) { (dayText: DayText) throws(DayTextError) in try dayText.month(text) }
    }

    /// An inverted range is refused rather than read as an empty one.
    static func checkOrder(from: String?, to: String?) throws {
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to)") }
    }
}

/// `--from`/`--to` days for the lists and reports over days (`tx list`, `report payees`,
/// `invest trades`): each a day as `DayText` reads it, or a month (its first day as `--from`,
/// its last as `--to`); an inverted range is refused.
struct DayRangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "From this day (inclusive): YYYY-MM-DD, a month YYYY-MM (its first day), today, -3d, …",
            transform: DayOptions.rangeStart) var from: String?
    @Option(parsing: .unconditional, help: "To this day (inclusive): YYYY-MM-DD, a month YYYY-MM (its last day), today, -3d, …",
            transform: DayOptions.rangeEnd) var to: String?

    func validate() throws { try DayOptions.checkOrder(from: from, to: to) }
}
