import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.payees`: totals by the transactions' notes. Notes are free text, so this one report
/// reads the transactions of its date range (through the date index), not the kept totals.
enum PayeeReporter {
    static func report(_ request: PayeeReportRequest, _ db: Database) throws -> PayeeReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let kind = request.kind ?? .expense
        let limit = request.limit ?? 10
        guard (1...1_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 1000, got \(limit)", field: .body("limit")) }
        let from = try request.from.map { try InputRules.date($0, field: .body("from")).description } ?? "0000-01-01"
        let to = try request.to.map { try InputRules.date($0, field: .body("to")).description } ?? "9999-12-31"
        let rows = try db.cachedRows(
            sql: """
                SELECT min(notes) AS payee, count(*) AS n, coalesce(sum(base_amount_minor), 0) AS total, sum(base_amount_minor IS NULL) AS uncounted
                FROM transactions
                WHERE kind = ? AND counterparty_tx_id IS NULL AND trade_transfer = 0 AND notes IS NOT NULL AND date BETWEEN ? AND ?
                GROUP BY notes COLLATE NOCASE ORDER BY abs(total) DESC, payee LIMIT ?
                """,
            arguments: [kind.rawValue, from, to, limit])
        let payees = rows.map { row in
            PayeeTotal(payee: row["payee"], count: row["n"], total: base.map { InputRules.format(Int64((row["total"] as Int64).magnitude), $0) } ?? "0",
                       uncounted: row["uncounted"])
        }
        return PayeeReport(baseCurrency: base, kind: kind, payees: payees)
    }
}
