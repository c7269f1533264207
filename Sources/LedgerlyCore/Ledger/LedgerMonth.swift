/// Arithmetic on "YYYY-MM" month texts, the form budgets, alert periods and auto-funds use.
/// The texts are validated where they come in (`BudgetHandlers.month`); here they are only
/// stepped, so a month before or after is a string that still sorts in time order.
public enum LedgerMonth {
    public static func next(_ month: String) -> String { adding(1, to: month) }

    public static func previous(_ month: String) -> String { adding(-1, to: month) }

    /// "YYYY-MM-DD" of the month's last day.
    public static func lastDay(of month: String) -> String {
        let (year, number) = parts(month)
        return "\(month)-\(LedgerDate.daysIn(month: number, year: year))"
    }

    private static func adding(_ months: Int, to month: String) -> String {
        let (year, number) = parts(month)
        let total = year * 12 + number - 1 + months
        let newYear = total / 12, newMonth = total % 12 + 1
        return String(repeating: "0", count: max(0, 4 - String(newYear).count)) + String(newYear) + (newMonth < 10 ? "-0" : "-") + String(newMonth)
    }

    private static func parts(_ month: String) -> (Int, Int) {
        (Int(month.prefix(4)) ?? 1970, min(max(Int(month.suffix(2)) ?? 1, 1), 12))
    }
}
