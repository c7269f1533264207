import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.export`: every transaction in id order, a page at a time, for exports and for subscribers
/// that need the rows behind a `tx.imported` event.
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
        let after = request.afterId ?? 0
        let rows = try StoredTransaction.page(db, after: after, limit: limit)
        let total = request.afterId == nil ? try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") : nil
        guard let last = rows.last?.id else { return TransactionExportReply(transactions: [], nextAfterId: nil, total: total) }

        // The page is every transaction with an id in (after, last]: its tags and splits are
        // those of that range, in the order `TransactionHandlers.records` gives them.
        var tags: [Int64: [String]] = [:]
        let tagCursor = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
            WHERE tt.tx_id > ? AND tt.tx_id <= ? ORDER BY tt.tx_id, g.name COLLATE NOCASE
            """), arguments: [after, last])
        while let row = try tagCursor.next() { tags[row[0], default: []].append(row[1]) }
        var splits: [Int64: [SplitPart]] = [:]
        let splitCursor = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT s.tx_id, s.amount_minor, t.currency, s.category_id, s.memo FROM splits s JOIN transactions t ON t.id = s.tx_id
            WHERE s.tx_id > ? AND s.tx_id <= ? ORDER BY s.tx_id, s.position
            """), arguments: [after, last])
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
        return TransactionExportReply(transactions: transactions, nextAfterId: rows.count == limit ? last : nil, total: total)
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

    static func page(_ db: Database, after: Int64, limit: Int) throws -> [StoredTransaction] {
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT t.id, t.kind, t.wallet_id, t.amount_minor, t.currency, t.wallet_amount_minor, t.base_amount_minor, t.category_id,
                   t.notes, t.date, t.attachment_path, t.counterparty_wallet_id, t.counterparty_tx_id, t.created_at, t.updated_at,
                   t.conversion, t.base_conversion, t.import_key, t.import_id, w.currency
            FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.id > ? ORDER BY t.id LIMIT ?
            """), arguments: [after, limit])
        var rows: [StoredTransaction] = []
        rows.reserveCapacity(limit)
        while let row = try cursor.next() {
            rows.append(StoredTransaction(
                id: row[0], kind: row[1], walletId: row[2], amountMinor: row[3], currency: row[4], walletAmountMinor: row[5],
                baseAmountMinor: row[6], categoryId: row[7], notes: row[8], date: row[9], attachmentPath: row[10],
                counterpartyWalletId: row[11], counterpartyTransactionId: row[12], createdAt: row[13], updatedAt: row[14],
                conversion: row[15], baseConversion: row[16], importKey: row[17], importId: row[18], walletCurrency: row[19]))
        }
        return rows
    }
}
