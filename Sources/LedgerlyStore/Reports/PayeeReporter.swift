import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.payees`: totals by the transactions' notes, notes that differ only in ASCII case
/// counted together (SQLite's NOCASE), transfers left out.
///
/// Whole months are read from `payee_totals` (kept with every write); a range that starts or ends
/// inside a month reads that month's days from the transactions, through the date index, so any
/// day range is exact and at most two partial months of transactions are ever read (D223). The
/// partial days' statement is `TransactionRow`'s, joined here into one statement (D550).
enum PayeeReporter {
    static func report(_ request: PayeeReportRequest, _ db: Database) throws -> PayeeReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let kind = request.kind ?? .expense
        let limit = request.limit ?? 10
        guard (1...1_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 1000, got \(limit)", field: .body("limit")) }
        let from = try request.from.map { try InputRules.date($0, field: .body("from")).description } ?? "0000-01-01"
        let to = try request.to.map { try InputRules.date($0, field: .body("to")).description } ?? "9999-12-31"
        let range = WholeMonthsRange(from: from, to: to)
        // One row per payee-month from the kept totals, one per transaction on the partial days;
        // a group is named by its first spelling in binary order (`min`), as it always was.
        let rows = try db.cachedRows(
            sql: """
                SELECT min(notes) AS payee, sum(n) AS n, sum(total) AS total, sum(uncounted) AS uncounted FROM (
                    SELECT notes, count AS n, base_minor AS total, missing_base AS uncounted
                    FROM payee_totals WHERE kind = ? AND month BETWEEN ? AND ?
                    UNION ALL
                    \(TransactionRow.payeePartialDaysSQL)
                ) GROUP BY notes COLLATE NOCASE ORDER BY abs(sum(total)) DESC, min(notes) LIMIT ?
                """,
            arguments: [kind.rawValue, range.firstMonth, range.lastMonth,
                        kind.rawValue, range.leading.from, range.leading.to, range.trailing.from, range.trailing.to, limit])
        let payees = rows.map { row in
            PayeeTotal(payee: row["payee"], count: row["n"], total: base.map { InputRules.format(Int64((row["total"] as Int64).magnitude), $0) } ?? "0",
                       uncounted: row["uncounted"])
        }
        return PayeeReport(baseCurrency: base, kind: kind, payees: payees)
    }
}
