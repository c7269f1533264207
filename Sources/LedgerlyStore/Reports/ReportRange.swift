import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The months a report covers: the asked bounds, or the first and last month with transactions.
struct ReportRange {
    let months: [String]

    var first: String? { months.first }
    var last: String? { months.last }

    /// Reports longer than this are refused (a century of months): a typo'd year must not
    /// produce a million empty columns.
    static let maximumMonths = 1_200

    init(_ db: Database, from: String?, to: String?) throws {
        let from = try from.map { try Self.month($0, field: .body("from")) }
        let to = try to.map { try Self.month($0, field: .body("to")) }
        // Two subqueries, not `SELECT min(month), max(month)`: SQLite answers a lone min() or max()
        // from one end of the primary key, but both in one SELECT scan the whole table (D228).
        let bounds = try Row.fetchOne(db, sql: """
            SELECT (SELECT min(month) FROM category_totals) AS first, (SELECT max(month) FROM category_totals) AS last
            """)
        let first: String? = bounds?["first"], last: String? = bounds?["last"]
        // An open end reaches the data, or stays where the given end is ("the last 3 months"
        // with nothing recorded lately is three empty months, not an error).
        guard let start = from ?? [first, to].compactMap({ $0 }).min(), let end = to ?? [last, from].compactMap({ $0 }).max() else {
            months = []
            return
        }
        guard start <= end else {
            throw LedgerError.invalid("the range starts (\(start)) after it ends (\(end))", field: .body("from"))
        }
        var months: [String] = []
        var month = start
        while true {
            months.append(month)
            guard months.count <= Self.maximumMonths else {
                throw LedgerError.invalid("a report covers at most \(Self.maximumMonths) months", field: .body("from"))
            }
            // Stops on reaching `end` rather than comparing the next month with it: after
            // 9999-12 comes "10000-01", which sorts before "9999-12" as text.
            if month == end { break }
            month = LedgerMonth.next(month)
        }
        self.months = months
    }

    /// "YYYY-MM", checked.
    static func month(_ text: String, field: FieldPath) throws(LedgerError) -> String {
        guard text.count == 7, let date = LedgerDate(text + "-01"), date.description == text + "-01" else {
            throw LedgerError.invalid("\(field) must be a month as YYYY-MM, got \(InputEcho.quoted(text))", field: field)
        }
        return text
    }
}
