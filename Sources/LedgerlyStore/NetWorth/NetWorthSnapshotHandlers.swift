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
        if let stored = try NetWorthSnapshotRow.find(db, month: month) {
            return NetWorthSnapshotTakeReply(snapshot: try stored.record(includeItems: true), created: false)
        }
        let day = LedgerMonth.lastDay(of: month)
        let computed = try NetWorthCalculator(db: db, now: context.date).compute(day: day)
        try NetWorthSnapshotRow(
            month: month, date: day, baseCurrency: computed.baseCurrency, totalAssetsMinor: computed.sums.totalAssets, totalLiabilitiesMinor: computed.sums.totalLiabilities,
            netWorthMinor: computed.sums.netWorth, coreMinor: computed.sums.core, tangibleMinor: computed.sums.tangible, volatileMinor: computed.sums.volatile,
            complete: computed.complete, warnings: try json(computed.warnings), items: try json(computed.items), takenAt: context.now).insert(db)
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
        let rows = try NetWorthSnapshotRow.range(db, from: from ?? "0000-00", to: to ?? "9999-99")
        var snapshots = try rows.map { try $0.record(includeItems: request.includeItems == true) }
        if request.recompute == true {
            let calculator = try NetWorthCalculator(db: db, now: context.date)
            for index in snapshots.indices {
                let now = try calculator.compute(day: snapshots[index].date).figures
                snapshots[index].recomputed = now
                snapshots[index].differs = now != snapshots[index].figures
            }
        }
        return NetWorthSnapshotListReply(snapshots: snapshots, missing: try missing(db, from: from, to: to, taken: Set(rows.map(\.month)), now: context.date))
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
            stored = Set(try NetWorthSnapshotRow.months(db, from: month, to: last))
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

    /// YYYY-MM, a real month.
    static func month(_ text: String, field: @autoclosure () -> FieldPath) throws -> String {
        guard text.count == 7, LedgerDate(text + "-01") != nil else {
            throw LedgerError.invalid("\(field()) must be a month as YYYY-MM, got \(InputEcho.quoted(text))", field: field())
        }
        return text
    }
}
