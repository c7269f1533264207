import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.export`: every transaction in id order (or (date, id) order for journals), a page at a
/// time, for exports and for subscribers that need the rows behind a `tx.imported` event.
///
/// A page is three cached statements over one id range (the transactions, their tags, their
/// splits), read by column position, and written without Foundation's encoder (D260, D263). The
/// records are the ones `TransactionHandlers.records` builds, member for member; the end-to-end
/// export tests compare the two.
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
        let rows: [StoredTransaction]
        if byDate {
            let afterDate = try dateCursor(request)
            rows = try StoredTransaction.pageByDate(db, after: afterDate.map { ($0, after) }, limit: limit, conversions: conversions)
        } else {
            guard request.afterDate == nil else {
                throw LedgerError.invalid("body.afterDate is only for \"order\": \"date\"", field: .body("afterDate"))
            }
            rows = try StoredTransaction.page(db, after: after, limit: limit, conversions: conversions)
        }
        let total = request.afterId == nil ? try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") : nil
        guard let last = rows.last else { return TransactionExportReply(transactions: [], nextAfterId: nil, total: total) }

        // Id order: the page is every transaction with an id in (after, last], so its tags and
        // splits are those of that range. Date order: the page's ids, as a JSON array. Either
        // way in the order `TransactionHandlers.records` gives them.
        let tagSQL = byDate
            ? "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id IN (SELECT value FROM json_each(?)) ORDER BY tt.tx_id, g.name COLLATE NOCASE"
            : "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id > ? AND tt.tx_id <= ? ORDER BY tt.tx_id, g.name COLLATE NOCASE"
        let splitSQL = byDate
            ? "SELECT s.tx_id, s.amount_minor, t.currency, s.category_id, s.memo FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id IN (SELECT value FROM json_each(?)) ORDER BY s.tx_id, s.position"
            : "SELECT s.tx_id, s.amount_minor, t.currency, s.category_id, s.memo FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id > ? AND s.tx_id <= ? ORDER BY s.tx_id, s.position"
        let arguments: StatementArguments = byDate ? ["[" + rows.map { String($0.id) }.joined(separator: ",") + "]"] : [after, last.id]
        var tags: [Int64: [String]] = [:]
        let tagCursor = try Row.fetchCursor(db.cachedStatement(sql: tagSQL), arguments: arguments)
        while let row = try tagCursor.next() { tags[row[0], default: []].append(row[1]) }
        var splits: [Int64: [SplitPart]] = [:]
        let splitCursor = try Row.fetchCursor(db.cachedStatement(sql: splitSQL), arguments: arguments)
        while let row = try splitCursor.next() {
            splits[row[0], default: []].append(SplitPart(amount: InputRules.format(row[1], row[2]), categoryId: row[3], memo: row[4]))
        }

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
        let transactions = rows.map { stored in
            TransactionRecord(
                id: stored.id, kind: TransactionKind(rawValue: stored.kind) ?? .expense, walletId: stored.walletId,
                amount: InputRules.format(stored.amountMinor, stored.currency), currency: stored.currency,
                categoryId: stored.categoryId, notes: stored.notes, date: stored.date, tags: tags[stored.id] ?? [],
                attachmentPath: stored.attachmentPath,
                transfer: stored.counterpartyWalletId.flatMap { wallet in
                    stored.counterpartyTransactionId.map { TransferLink(counterpartyWalletId: wallet, counterpartyTransactionId: $0) }
                },
                splits: splits[stored.id] ?? [],
                walletAmount: InputRules.format(Int64(stored.walletAmountMinor.magnitude), stored.walletCurrency),
                baseAmount: base.flatMap { base in stored.baseAmountMinor.map { InputRules.format(Int64($0.magnitude), base) } }, baseCurrency: base,
                conversion: snapshot(stored.conversion), baseConversion: snapshot(stored.baseConversion),
                createdAt: stored.createdAt, updatedAt: stored.updatedAt, importKey: stored.importKey, importId: stored.importId)
        }
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

/// A transaction row as `TransactionRow` has it, read by column position from one cached
/// statement (looking each column up by name was a large part of a page).
private struct StoredTransaction {
    var id: Int64
    var kind: String
    var walletId: Int64
    var amountMinor: Int64
    var currency: String
    var walletAmountMinor: Int64
    var baseAmountMinor: Int64?
    var categoryId: Int64?
    var notes: String?
    var date: String
    var attachmentPath: String?
    var counterpartyWalletId: Int64?
    var counterpartyTransactionId: Int64?
    var createdAt: String
    var updatedAt: String
    var conversion: String?
    var baseConversion: String?
    var importKey: String?
    var importId: String?
    var walletCurrency: String

    /// `conversions`: with the snapshots' text (stored once each and joined by id, D372), or
    /// NULL in their place, for the exports that do not write them, without the look-ups.
    private static func columns(conversions: Bool) -> String {
        """
        SELECT t.id, t.kind, t.wallet_id, t.amount_minor, t.currency, t.wallet_amount_minor, t.base_amount_minor, t.category_id,
               t.notes, t.date, t.attachment_path, t.counterparty_wallet_id, t.counterparty_tx_id, t.created_at, t.updated_at,
               \(conversions ? "sc.snapshot, sb.snapshot" : "NULL, NULL"), t.import_key, t.import_id, w.currency
        FROM transactions t JOIN wallets w ON w.id = t.wallet_id
        \(conversions ? "LEFT JOIN conversion_snapshots sc ON sc.id = t.conversion_id LEFT JOIN conversion_snapshots sb ON sb.id = t.base_conversion_id" : "")
        """
    }

    /// `conversions` false: `conversion` and `baseConversion` are left nil, unread.
    static func page(_ db: Database, after: Int64, limit: Int, conversions: Bool) throws -> [StoredTransaction] {
        try read(Row.fetchCursor(db.cachedStatement(sql: columns(conversions: conversions) + " WHERE t.id > ? ORDER BY t.id LIMIT ?"), arguments: [after, limit]),
                 limit: limit, conversions: conversions)
    }

    /// In (date, id) order from the `transactions_by_date` index, after `after` when given.
    static func pageByDate(_ db: Database, after: (date: String, id: Int64)?, limit: Int, conversions: Bool) throws -> [StoredTransaction] {
        guard let after else {
            return try read(Row.fetchCursor(db.cachedStatement(sql: columns(conversions: conversions) + " ORDER BY t.date, t.id LIMIT ?"), arguments: [limit]),
                            limit: limit, conversions: conversions)
        }
        return try read(Row.fetchCursor(db.cachedStatement(sql: columns(conversions: conversions) + " WHERE (t.date, t.id) > (?, ?) ORDER BY t.date, t.id LIMIT ?"),
                                        arguments: [after.date, after.id, limit]), limit: limit, conversions: conversions)
    }

    private static func read(_ cursor: RowCursor, limit: Int, conversions: Bool) throws -> [StoredTransaction] {
        var rows: [StoredTransaction] = []
        rows.reserveCapacity(limit)
        while let row = try cursor.next() {
            rows.append(StoredTransaction(
                id: row[0], kind: row[1], walletId: row[2], amountMinor: row[3], currency: row[4], walletAmountMinor: row[5],
                baseAmountMinor: row[6], categoryId: row[7], notes: row[8], date: row[9], attachmentPath: row[10],
                counterpartyWalletId: row[11], counterpartyTransactionId: row[12], createdAt: row[13], updatedAt: row[14],
                conversion: conversions ? row[15] : nil, baseConversion: conversions ? row[16] : nil,
                importKey: row[17], importId: row[18], walletCurrency: row[19]))
        }
        return rows
    }
}
