import LedgerlyCore
import LedgerlyProtocol

/// A day as people type it, made the ledger's `YYYY-MM-DD` before anything is sent
/// (docs/cli-input.md): the ledger's own form and `2026/11/23` or `2026.11.23`; `today`,
/// `yesterday`, `tomorrow`; a count back from today, `-3d`, `-2w`, `-1m`, `-1y` (a month or year
/// back from the 31st is the shorter month's last day); and, with the year last,
/// `23/11/2026`, `23.11.2026` or `23-11-2026` read day first or month first as the user's locale
/// writes dates. Without a locale that says (`C`, `POSIX`, none), a year-last day is refused as
/// ambiguous rather than guessed. A range bound may be a month, `2026-11`: its first day as
/// `--from`, its last as `--to`.
struct DayText: Sendable {
    /// How a locale writes a day with the year last.
    enum Order: Equatable, Sendable {
        case dayFirst, monthFirst
    }

    /// Today, `YYYY-MM-DD`, as the CLI's clock and time zone have it.
    var today: LedgerDate { clock() }
    /// The user's locale's order; nil when no locale says.
    let order: Order?
    /// Gives today, asked only when a text needs it (`today`, `-3d`): working it out loads the
    /// time zone, a millisecond of a command that is given plain days.
    private let clock: @Sendable () -> LedgerDate

    init(today: LedgerDate, order: Order?) {
        self.init(order: order) { today }
    }

    private init(order: Order?, clock: @escaping @Sendable () -> LedgerDate) {
        self.order = order
        self.clock = clock
    }

    /// Today from the clock, the order from `LC_ALL`, `LC_TIME` or `LANG`.
    static func current(environment: [String: String]) -> DayText {
        DayText(order: order(environment: environment)) { LedgerDate(Timestamp.today()) ?? LedgerDate("1970-01-01")! }
    }

    func day(_ text: String) throws(DayTextError) -> LedgerDate {
        let trimmed = Self.trimmed(text)
        switch trimmed.lowercased() {
        case "today": return today
        case "yesterday": return try shifted(days: -1, text)
        case "tomorrow": return try shifted(days: 1, text)
        default: break
        }
        if trimmed.hasPrefix("-") || trimmed.hasPrefix("+") { return try relative(trimmed) }
        let separators: Set<Character> = ["-", "/", "."]
        guard let separator = trimmed.first(where: { separators.contains($0) }) else { throw .unreadable(text) }
        let parts = trimmed.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }) else { throw .unreadable(text) }
        let (year, month, day): (String, String, String)
        if parts[0].count == 4 {
            (year, month, day) = (parts[0], parts[1], parts[2])
        } else if parts[2].count == 4 {
            guard let order else { throw .ambiguous(text) }
            (year, month, day) = order == .dayFirst ? (parts[2], parts[1], parts[0]) : (parts[2], parts[0], parts[1])
        } else {
            throw .unreadable(text)
        }
        guard month.count <= 2, day.count <= 2, let date = LedgerDate("\(year)-\(Self.pad(month))-\(Self.pad(day))") else { throw .noSuchDay(text) }
        return date
    }

    /// A month, `YYYY-MM` (also `YYYY/MM`), or the month of any day `day` reads.
    func month(_ text: String) throws(DayTextError) -> String {
        if let month = Self.monthOnly(text) { return month }
        return String(try day(text).description.prefix(7))
    }

    /// A `--from`: a day, or a month's first day.
    func rangeStart(_ text: String) throws(DayTextError) -> LedgerDate {
        if let month = Self.monthOnly(text) { return LedgerDate("\(month)-01")! }
        return try day(text)
    }

    /// A `--to`: a day, or a month's last day.
    func rangeEnd(_ text: String) throws(DayTextError) -> LedgerDate {
        if let month = Self.monthOnly(text) { return LedgerDate(LedgerMonth.lastDay(of: month))! }
        return try day(text)
    }

    /// `YYYY-MM` or `YYYY/MM`, a real month; nil for anything else.
    private static func monthOnly(_ text: String) -> String? {
        let trimmed = Self.trimmed(text)
        let parts = trimmed.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "/" }
        guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let month = Int(parts[1]), (1...12).contains(month), LedgerDate("\(parts[0])-01-01") != nil else { return nil }
        return "\(parts[0])-\(pad(String(parts[1])))"
    }

    /// `-3d`, `-2w`, `-1m`, `-1y` (and `+` for days ahead).
    private func relative(_ text: String) throws(DayTextError) -> LedgerDate {
        let sign = text.hasPrefix("-") ? -1 : 1
        let body = text.dropFirst()
        guard let unit = body.last, let count = Int(body.dropLast()), count >= 0, count <= 100_000 else { throw .unreadable(text) }
        let date: LedgerDate?
        switch unit {
        case "d": date = today.adding(days: sign * count)
        case "w": date = today.adding(days: sign * count * 7)
        case "m": date = today.adding(months: sign * count)
        case "y": date = today.adding(months: sign * count * 12)
        default: throw .unreadable(text)
        }
        guard let date else { throw .noSuchDay(text) }
        return date
    }

    private func shifted(days: Int, _ text: String) throws(DayTextError) -> LedgerDate {
        guard let date = today.adding(days: days) else { throw .noSuchDay(text) }
        return date
    }

    /// On a `Substring`, which the CLI already uses: the reversed lazy views this was written
    /// with made the runtime look up their generic types' conformances on every run.
    private static func trimmed(_ text: String) -> String {
        var kept = Substring(text)
        while kept.first == " " { kept.removeFirst() }
        while kept.last == " " { kept.removeLast() }
        return String(kept)
    }

    private static func pad(_ digits: String) -> String { digits.count == 1 ? "0" + digits : digits }

    /// Regions that write the month first (`11/23/2026`); every other region with a locale writes
    /// the day first. Year-first regions (`2026/11/23`) are read by the year-first rule.
    private static let monthFirstRegions: Set<String> = ["US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "UM", "VI"]

    /// The order of the first of `LC_ALL`, `LC_TIME`, `LANG` that is set and not empty, by its
    /// region (`de_DE.UTF-8` → day first, `en_US` → month first); nil for `C`, `POSIX` or a
    /// locale without a region.
    static func order(environment: [String: String]) -> Order? {
        guard let locale = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        let name = locale.prefix { $0 != "." && $0 != "@" }
        let parts = name.split(separator: "_")
        guard parts.count == 2, parts[1].count == 2, parts[0] != "C" else { return nil }
        return monthFirstRegions.contains(String(parts[1]).uppercased()) ? .monthFirst : .dayFirst
    }
}

/// Why a day typed on the command line is not one.
enum DayTextError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case ambiguous(String)
    case noSuchDay(String)

    var description: String {
        switch self {
        case .unreadable(let text):
            "'\(text)' is not a day: give YYYY-MM-DD (or YYYY/MM/DD), today, yesterday, tomorrow, or a count back such as -3d, -2w, -1m"
        case .ambiguous(let text):
            "'\(text)' could be read day first or month first, and no locale says which (LC_TIME or LANG is C or unset): give YYYY-MM-DD"
        case .noSuchDay(let text):
            "'\(text)' is not a day of the calendar"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
