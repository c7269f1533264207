import LedgerlyCore

/// The months of a report as its address carries them (`?from=2026-01&to=2026-06`, or
/// `?months=3`), read as `ledgerly report categories|cashflow` reads `--from`, `--to` and
/// `--months`: blank ends are left to the store (the first or last month with transactions),
/// `months` counts back from this month, this one included, and is refused beside its field
/// when it is not a whole number from 1 or comes with `from`/`to` (D571). The store checks the
/// months themselves and names the field it refuses.
struct MonthRangeQuery: Sendable, Equatable {
    /// What the address held, trimmed, to fill the form again.
    let from: String
    let to: String
    let months: String

    /// The bounds to send, or why not.
    enum Bounds: Sendable, Equatable {
        case range(from: String?, to: String?)
        case refused(field: String, message: String)
    }

    init(_ query: FormFields) {
        from = query.trimmed("from") ?? ""
        to = query.trimmed("to") ?? ""
        months = query.trimmed("months") ?? ""
    }

    /// The months to ask for, `thisMonth` being "YYYY-MM" today.
    func bounds(thisMonth: String) -> Bounds {
        guard !months.isEmpty else { return .range(from: from.isEmpty ? nil : from, to: to.isEmpty ? nil : to) }
        guard let count = Int(months), count >= 1, count <= 1_200 else {
            return .refused(field: "months", message: "The last how many months: a whole number from 1 to 1200, got \u{201C}\(months)\u{201D}.")
        }
        guard from.isEmpty && to.isEmpty else {
            return .refused(field: "months", message: "Months count back from this month: give them, or from and to, not both.")
        }
        var first = thisMonth
        for _ in 1..<count { first = LedgerMonth.previous(first) }
        return .range(from: first, to: thisMonth)
    }

    /// The range as a query string (for links that keep it), without a leading "?".
    var queryText: String {
        [("from", from), ("to", to), ("months", months)].filter { !$0.1.isEmpty }.map { "\($0.0)=\(QueryEncoding.encode($0.1))" }.joined(separator: "&")
    }
}
