import ArgumentParser
import LedgerlyCore
import LedgerlyProtocol

/// `--from`/`--to` months or `--months N` for the monthly reports: the last N months are counted
/// back from this month, so `--months 12` always ends with the month you are in.
struct MonthRangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "First month, YYYY-MM, or a day's month (default: the first with transactions).",
            transform: DayOptions.month) var from: String?
    @Option(parsing: .unconditional, help: "Last month, YYYY-MM, or a day's month (default: the last with transactions).",
            transform: DayOptions.month) var to: String?
    @Option(help: "The last N months, this one included.") var months: Int?

    func validate() throws {
        if let months, months < 1 { throw ValidationError("--months must be at least 1") }
        if months != nil && (from != nil || to != nil) { throw ValidationError("--months counts back from this month: give it, or --from/--to") }
        try DayOptions.checkOrder(from: from, to: to)
    }

    /// The range to ask the store for; nil ends are left to the store (first or last month with data).
    var resolved: (from: String?, to: String?) {
        guard let months else { return (from, to) }
        return (Self.month(back: months - 1), Self.month(back: 0))
    }

    /// "YYYY-MM" of the month `back` months before this one.
    static func month(back: Int) -> String {
        var month = String(Timestamp.today().prefix(7))
        for _ in 0..<back { month = LedgerMonth.previous(month) }
        return month
    }
}
