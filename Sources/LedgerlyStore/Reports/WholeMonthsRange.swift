import LedgerlyCore

/// A day range cut into the whole months the kept totals answer (`payee_totals` for the payee
/// report, `ledger_totals` for `tx.list`'s count of a category) and the partial months at either
/// end, which are read from the transactions.
///
/// Each part is an inclusive range; a part that is not needed is an empty range (its start after
/// its end), so the report's SQL is the same text whatever the dates (one cached statement).
struct WholeMonthsRange {
    /// Whole months, "YYYY-MM", inclusive.
    let firstMonth: String
    let lastMonth: String
    /// Days before the first whole month, "YYYY-MM-DD", inclusive.
    let leading: (from: String, to: String)
    /// Days after the last whole month, inclusive.
    let trailing: (from: String, to: String)

    private static let noMonths = (first: "9999-99", last: "0000-00")
    private static let noDays = (from: "9999-99-99", to: "0000-00-00")

    /// `from` and `to` are checked "YYYY-MM-DD" days, `from` ≤ `to` or not.
    init(from: String, to: String) {
        let fromMonth = String(from.prefix(7)), toMonth = String(to.prefix(7))
        let startsOnFirst = from.hasSuffix("-01"), endsOnLast = to == LedgerMonth.lastDay(of: toMonth)
        // Compared as month numbers: stepping past 9999-12 makes text that no longer sorts.
        let firstWhole = Self.index(fromMonth) + (startsOnFirst ? 0 : 1)
        let lastWhole = Self.index(toMonth) - (endsOnLast ? 0 : 1)
        guard firstWhole <= lastWhole else {
            (firstMonth, lastMonth) = Self.noMonths
            leading = (from, to)
            trailing = Self.noDays
            return
        }
        firstMonth = startsOnFirst ? fromMonth : LedgerMonth.next(fromMonth)
        lastMonth = endsOnLast ? toMonth : LedgerMonth.previous(toMonth)
        leading = startsOnFirst ? Self.noDays : (from, LedgerMonth.lastDay(of: fromMonth))
        trailing = endsOnLast ? Self.noDays : (toMonth + "-01", to)
    }

    private static func index(_ month: String) -> Int {
        (Int(month.prefix(4)) ?? 0) * 12 + (Int(month.suffix(2)) ?? 1) - 1
    }
}
