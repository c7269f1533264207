import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.export`: every transaction in id order (or (date, id) order for journals), a page at a
/// time, for exports and for subscribers that need the rows behind a `tx.imported` event.
///
/// A page is three cached statements over one id range (the transactions, their tags, their
/// splits: `TransactionRow.exportPage` and `exportTagsAndSplits`), read by column position, and
/// written without Foundation's encoder (D260, D263). The records are built by
/// `TransactionRow.record`, as `TransactionHandlers.records` builds them; the end-to-end export
/// tests compare the two.
enum TransactionExportHandler {
    static func export(_ request: TransactionExportRequest, _ db: Database) throws -> [UInt8] {
        TransactionExportCoding.encode(try page(request, db))
    }

    static func page(_ request: TransactionExportRequest, _ db: Database) throws -> TransactionExportReply {
        let limit = request.limit ?? 1_000
        guard (1...10_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 10000, got \(limit)", field: .body("limit")) }
        let byDate = request.order == .date
        let after = try InputRules.pageCursor(request.afterId, field: .body("afterId")) ?? 0
        // Without them, the stored snapshots are not even read out of their rows.
        let conversions = request.conversions ?? true
        let rows: [TransactionRow]
        if byDate {
            let afterDate = try dateCursor(request)
            rows = try TransactionRow.exportPageByDate(db, after: afterDate.map { ($0, after) }, limit: limit, conversions: conversions)
        } else {
            guard request.afterDate == nil else {
                throw LedgerError.invalid("body.afterDate is only for \"order\": \"date\"", field: .body("afterDate"))
            }
            rows = try TransactionRow.exportPage(db, after: after, limit: limit, conversions: conversions)
        }
        let total = request.afterId == nil ? try TransactionRow.count(db) : nil
        guard let last = rows.last else { return TransactionExportReply(transactions: [], nextAfterId: nil, total: total) }

        let (tags, splits) = try TransactionRow.exportTagsAndSplits(db, range: (after, last.id), ids: byDate ? rows.map(\.id) : nil)
        let base = try SettingsHandlers.baseCurrency(db)
        // A page spans a few days: a few distinct rate snapshots, each decoded once.
        var snapshots: [String: RateSnapshot] = [:]
        func snapshot(_ text: String?) -> RateSnapshot? {
            guard let text else { return nil }
            if let known = snapshots[text] { return known }
            let decoded = TransactionConversion.snapshot(text)
            snapshots[text] = decoded
            return decoded
        }
        let transactions = rows.map { $0.record(tags: tags[$0.id] ?? [], splits: splits[$0.id] ?? [], base: base, snapshot: snapshot) }
        let full = rows.count == limit
        return TransactionExportReply(transactions: transactions, nextAfterId: full ? last.id : nil, total: total,
                                      nextAfterDate: full && byDate ? last.date : nil)
    }

    /// Date order's cursor: `afterDate` and `afterId` come together (the previous page's
    /// `nextAfterDate` and `nextAfterId`), or neither for the first page.
    private static func dateCursor(_ request: TransactionExportRequest) throws -> String? {
        switch (request.afterDate, request.afterId) {
        case (nil, nil): return nil
        case (let date?, _?):
            guard LedgerDate(date) != nil else { throw LedgerError.invalid("body.afterDate must be a YYYY-MM-DD date, got '\(date)'", field: .body("afterDate")) }
            return date
        case (nil, _?): throw LedgerError.invalid("body.afterDate is required with afterId in date order (the previous page's nextAfterDate)", field: .body("afterDate"))
        case (_?, nil): throw LedgerError.invalid("body.afterId is required with afterDate (the previous page's nextAfterId)", field: .body("afterId"))
        }
    }
}
