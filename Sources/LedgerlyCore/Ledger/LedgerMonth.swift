/// Arithmetic on "YYYY-MM" month texts, the form budgets, alert periods and auto-funds use.
/// The texts are validated where they come in (`BudgetHandlers.month`); here they are only
/// stepped, so a month before or after is a string that still sorts in time order.
public enum LedgerMonth {
    /// The month of a "YYYY-MM-DD" day: its first seven characters, read as its first seven
    /// bytes without walking `Character`s when the first eight bytes are ASCII other than CR, as
    /// a day's always are (then no byte joins the next into one character). A load takes the
    /// month of every transaction, and the `Character` prefix cost twice as much (D381).
    public static func of(_ day: String) -> String {
        var text = day
        // Over the bytes in place: a `String.UTF8View` prefix walked generically cost more than
        // the `Character`s it replaces.
        let month = text.withUTF8 { bytes -> String? in
            guard bytes.prefix(8).allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(7)), as: UTF8.self)
        }
        return month ?? String(day.prefix(7))
    }

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
