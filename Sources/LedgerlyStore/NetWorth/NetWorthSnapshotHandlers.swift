import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `networth.get` and `networth.snapshot.take|list`. A month's snapshot is taken once (the month
/// is the table's key) and never changed; `recompute` shows today's figures beside it.
enum NetWorthSnapshotHandlers {
    static func get(_ request: NetWorthRequest, _ context: ReadContext) throws -> NetWorthReport {
        let day = try NetWorthRules.pastDay(request.at, today: context.today, field: .body("at"))
        return try NetWorthCalculator(db: context.db, now: context.date).compute(day: day).report
    }

    static func take(_ request: NetWorthSnapshotTakeRequest, _ context: inout WriteContext) throws -> NetWorthSnapshotTakeReply {
        let db = context.db
        let month = try self.month(request.month, field: .body("month"))
        let current = String(Timestamp.today(at: context.date).prefix(7))
        guard month < current else {
            throw LedgerError.invalid("body.month \(month) has not ended yet (today is in \(current)): a snapshot is taken once its month is over", field: .body("month"))
        }
        if let stored = try Row.fetchOne(db, sql: "SELECT * FROM networth_snapshots WHERE month = ?", arguments: [month]) {
            return NetWorthSnapshotTakeReply(snapshot: try record(stored, includeItems: true), created: false)
        }
        let day = LedgerMonth.lastDay(of: month)
        let computed = try NetWorthCalculator(db: db, now: context.date).compute(day: day)
        try db.execute(sql: """
            INSERT INTO networth_snapshots (month, date, base_currency, total_assets_minor, total_liabilities_minor, net_worth_minor, core_minor, tangible_minor,
                                            volatile_minor, complete, warnings, items, taken_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [month, day, computed.baseCurrency, computed.sums.totalAssets, computed.sums.totalLiabilities, computed.sums.netWorth, computed.sums.core,
                             computed.sums.tangible, computed.sums.volatile, computed.complete, try json(computed.warnings), try json(computed.items), context.now])
        let snapshot = NetWorthSnapshotRecord(month: month, date: day, baseCurrency: computed.baseCurrency, figures: computed.figures, complete: computed.complete,
                                              warnings: computed.warnings, takenAt: context.now, items: computed.items, notValued: NetWorthParts.notValued(computed.items))
        try context.record(.netWorthSnapshotTaken, id: month, data: snapshot)
        return NetWorthSnapshotTakeReply(snapshot: snapshot, created: true)
    }

    static func list(_ request: NetWorthSnapshotListRequest, _ context: ReadContext) throws -> NetWorthSnapshotListReply {
        let db = context.db
        let from = try request.from.map { try month($0, field: .body("from")) }
        let to = try request.to.map { try month($0, field: .body("to")) }
        if let from, let to, from > to {
            throw LedgerError.invalid("body.from \(from) is after body.to \(to)", field: .body("from"))
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT month, date, base_currency, total_assets_minor, total_liabilities_minor, net_worth_minor, core_minor, tangible_minor, volatile_minor, complete, warnings, items, taken_at
            FROM networth_snapshots WHERE month >= ? AND month <= ? ORDER BY month
            """, arguments: [from ?? "0000-00", to ?? "9999-99"])
        var snapshots = try rows.map { try record($0, includeItems: request.includeItems == true) }
        if request.recompute == true {
            let calculator = try NetWorthCalculator(db: db, now: context.date)
            for index in snapshots.indices {
                let now = try calculator.compute(day: snapshots[index].date).figures
                snapshots[index].recomputed = now
                snapshots[index].differs = now != snapshots[index].figures
            }
        }
        return NetWorthSnapshotListReply(snapshots: snapshots, missing: try missing(db, from: from, to: to, taken: Set(rows.map { $0["month"] as String }), now: context.date))
    }

    private static func json(_ value: some Encodable) throws -> String { String(decoding: try MessageCoding.encode(value), as: UTF8.self) }

    /// Ended months in the range, from the ledger's first month of history, without a snapshot.
    private static func missing(_ db: Database, from: String?, to: String?, taken: Set<String>, now: Date) throws -> [String] {
        guard let first = try firstMonth(db) else { return [] }
        let lastEnded = LedgerMonth.previous(String(Timestamp.today(at: now).prefix(7)))
        var month = max(first, from ?? first)
        let last = min(lastEnded, to ?? lastEnded)
        // Months outside the range asked for were not read; only those inside are checked.
        var stored = taken
        if from != nil || to != nil {
            stored = Set(try String.fetchAll(db, sql: "SELECT month FROM networth_snapshots WHERE month >= ? AND month <= ?", arguments: [month, last]))
        }
        var result: [String] = []
        while month <= last {
            if !stored.contains(month) { result.append(month) }
            month = LedgerMonth.next(month)
        }
        return result
    }

    /// The month of the earliest transaction, trade, valuation, liability entry or wallet.
    static func firstMonth(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: """
            SELECT substr(MIN(d), 1, 7) FROM (
                SELECT MIN(date) AS d FROM transactions UNION ALL SELECT MIN(date) FROM trades UNION ALL SELECT MIN(date) FROM asset_valuations
                UNION ALL SELECT MIN(date) FROM liability_entries UNION ALL SELECT MIN(substr(created_at, 1, 10)) FROM wallets)
            """)
    }

    static func record(_ row: Row, includeItems: Bool) throws -> NetWorthSnapshotRecord {
        let currency: String = row["base_currency"]
        let sums = NetWorthParts.Sums(totalAssets: row["total_assets_minor"], totalLiabilities: row["total_liabilities_minor"], netWorth: row["net_worth_minor"],
                                      core: row["core_minor"], tangible: row["tangible_minor"], volatile: row["volatile_minor"])
        let decoder = MessageCoding.decoder()
        // The items as taken name what was not valued (D410), so they are read even when not sent.
        let items = try decoder.decode([NetWorthItem].self, from: Data((row["items"] as String).utf8))
        return NetWorthSnapshotRecord(
            month: row["month"], date: row["date"], baseCurrency: currency, figures: sums.figures(currency), complete: row["complete"],
            warnings: try decoder.decode([String].self, from: Data((row["warnings"] as String).utf8)), takenAt: row["taken_at"],
            items: includeItems ? items : nil, notValued: NetWorthParts.notValued(items))
    }

    /// YYYY-MM, a real month.
    static func month(_ text: String, field: @autoclosure () -> FieldPath) throws -> String {
        guard text.count == 7, LedgerDate(text + "-01") != nil else {
            throw LedgerError.invalid("\(field()) must be a month as YYYY-MM, got \(InputEcho.quoted(text))", field: field())
        }
        return text
    }
}
