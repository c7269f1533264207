import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Every statement over `transactions`, `splits` and `transaction_tags`: `TransactionRow` owns
/// these tables, and this file (apart from `TransactionRow.swift` only for length) holds what it
/// runs on them (D454), but for `tx.list`'s, in `TransactionQueries.swift`. Handlers, the writer, the export and the sync code call these; none
/// spells the tables out.
///
/// Each statement is named SQL run through the connection's statement cache: the writer's inserts
/// run once per row of an import, a list or export page is read by column position, so none of
/// them goes through a record's generic persistence (D455). Their text is the text they had
/// where they were written before; what they return and refuse is unchanged.
extension TransactionRow {
    // MARK: Inserts (the ledger writer's)

    /// One transaction, the writer's (`TransactionWriter.insert`), kept for a whole import.
    static let insertSQL = """
        INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, conversion_id, base_conversion_id, category_id, notes, date, attachment_path, import_key, import_id, created_at, updated_at, trade_id, trade_transfer, liability_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// One leg of a transfer (`TransactionWriter.insertTransfer`); `linkLegs` then points each at the other.
    static let insertTransferLegSQL = """
        INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, base_conversion_id, notes, date, counterparty_wallet_id, import_key, import_id, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Points a transfer's two legs at each other, once both have ids.
    static func linkLegs(_ db: Database, outgoing: Int64, incoming: Int64) throws {
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [incoming, outgoing])
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [outgoing, incoming])
    }

    // MARK: One transaction

    static func find(_ db: Database, id: Int64) throws -> TransactionRow? {
        try db.cachedRow(sql: "SELECT \(selection) FROM transactions t \(selectionJoins) WHERE t.id = ?", arguments: [id]).map(TransactionRow.init(row:))
    }

    /// The transaction's signed effect on its wallet as stored; 0 when there is no such row.
    static func walletEffect(_ db: Database, id: Int64) throws -> Int64 {
        try db.cachedValue(Int64.self, sql: "SELECT wallet_amount_minor FROM transactions WHERE id = ?", arguments: [id]) ?? 0
    }

    /// Income in the base currency on the days from `from` up to, not including, `before`: income
    /// to an income category or to none; a refund (income to an expense category) is less
    /// spending, not income, and transfers and trades' cash are not income.
    static func baseIncome(_ db: Database, from: String, before: String) throws -> Int64 {
        try db.cachedValue(Int64.self, sql: """
            SELECT coalesce(sum(t.base_amount_minor), 0) FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
            WHERE t.kind = 'income' AND t.counterparty_tx_id IS NULL AND t.trade_transfer = 0 AND t.date >= ? AND t.date < ? AND (c.id IS NULL OR c.kind = 'income')
            """, arguments: [from, before]) ?? 0
    }

    /// The investment trade whose cash the transaction is, if any.
    static func tradeId(_ db: Database, id: Int64) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT trade_id FROM transactions WHERE id = ?", arguments: [id])
    }

    /// The liability the transaction pays, if any.
    static func liabilityId(_ db: Database, id: Int64) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT liability_id FROM transactions WHERE id = ?", arguments: [id])
    }

    /// What a transaction belongs to: its wallet and kind, and the trade or liability it is
    /// cash or a payment of, if any (`networth.restore` relinks a payment after checking them).
    static func links(_ db: Database, id: Int64) throws -> (walletId: Int64, kind: String, tradeId: Int64?, liabilityId: Int64?)? {
        try Row.fetchOne(db, sql: "SELECT wallet_id, kind, trade_id, liability_id FROM transactions WHERE id = ?", arguments: [id]).map { row -> (walletId: Int64, kind: String, tradeId: Int64?, liabilityId: Int64?) in
            (row["wallet_id"], row["kind"], row["trade_id"], row["liability_id"])
        }
    }

    /// Makes a transaction a liability's payment, counted like a transfer (`trade_transfer`);
    /// the caller takes it out of the kept totals first and puts it back after.
    static func makePayment(_ db: Database, id: Int64, liabilityId: Int64) throws {
        try db.execute(sql: "UPDATE transactions SET liability_id = ?, trade_transfer = 1 WHERE id = ?", arguments: [liabilityId, id])
    }

    /// Whether a transaction with this id is stored (`invest.restore` checks a trade's cash).
    static func exists(_ db: Database, id: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM transactions WHERE id = ?)", arguments: [id]) == true
    }

    /// Makes a transaction a trade's cash, counted like a transfer (`trade_transfer`) when it is a
    /// buy's or sale's (`invest.restore`); the caller takes it out of the kept totals first and
    /// puts it back after.
    static func makeTradeCash(_ db: Database, id: Int64, tradeId: Int64, transfer: Bool) throws {
        try db.execute(sql: "UPDATE transactions SET trade_id = ?, trade_transfer = ? WHERE id = ?", arguments: [tradeId, transfer, id])
    }

    /// `tx.update`'s change of what a transaction is worth and where it counts. `baseAmountMinor`
    /// and `walletAmountMinor` are signed, as stored.
    static func updateAmounts(_ db: Database, id: Int64, kind: String, walletId: Int64, amountMinor: Int64, walletAmountMinor: Int64,
                              baseAmountMinor: Int64?, categoryId: Int64?) throws {
        try db.execute(
            cached: "UPDATE transactions SET kind = ?, wallet_id = ?, amount_minor = ?, wallet_amount_minor = ?, base_amount_minor = ?, category_id = ? WHERE id = ?",
            arguments: [kind, walletId, amountMinor, walletAmountMinor, baseAmountMinor, categoryId, id])
    }

    /// `tx.update`'s change of what every transaction may change, with the update time.
    static func updateDescription(_ db: Database, id: Int64, notes: String?, date: String, attachmentPath: String?, updatedAt: String) throws {
        try db.execute(
            cached: "UPDATE transactions SET notes = ?, date = ?, attachment_path = ?, updated_at = ? WHERE id = ?",
            arguments: [notes, date, attachmentPath, updatedAt, id])
    }

    static func delete(_ db: Database, id: Int64) throws {
        try db.execute(cached: "DELETE FROM transactions WHERE id = ?", arguments: [id])
    }

    /// Whether the transaction still waits for its base amount (false if there is no such row).
    static func waitsForBaseAmount(_ db: Database, id: Int64) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT base_amount_minor IS NULL FROM transactions WHERE id = ?", arguments: [id]) ?? false
    }

    /// `BaseAmountBackfill`'s filling of a waiting base amount, with its conversion snapshot.
    static func fillBaseAmount(_ db: Database, id: Int64, baseAmountMinor: Int64, baseConversionId: Int64?, updatedAt: String) throws {
        try db.execute(
            cached: "UPDATE transactions SET base_amount_minor = ?, base_conversion_id = ?, updated_at = ? WHERE id = ?",
            arguments: [baseAmountMinor, baseConversionId, updatedAt, id])
    }

    // MARK: Split parts and tags

    /// Split parts carry their transaction's date (kept equal by `moveSplits`) so a category's
    /// matches in a date range are counted from one index (D224).
    static func insertSplits(_ db: Database, txId: Int64, date: String, splits: [(Money, SplitPart)]) throws {
        for (position, (money, part)) in splits.enumerated() {
            var insert = try BoundStatement(db, cached: "INSERT INTO splits (tx_id, position, amount_minor, category_id, memo, date) VALUES (?, ?, ?, ?, ?, ?)")
            insert.bind(txId, at: 1)
            insert.bind(position, at: 2)
            insert.bind(money.minorUnits, at: 3)
            insert.bind(part.categoryId, at: 4)
            insert.bind(part.memo, at: 5)
            insert.bind(date, at: 6)
            try insert.execute()
        }
    }

    static func deleteSplits(_ db: Database, txId: Int64) throws {
        try db.execute(cached: "DELETE FROM splits WHERE tx_id = ?", arguments: [txId])
    }

    /// Gives a transaction's split parts its new date.
    static func moveSplits(_ db: Database, txId: Int64, to date: String) throws {
        try db.execute(cached: "UPDATE splits SET date = ? WHERE tx_id = ?", arguments: [date, txId])
    }

    static func insertTags(_ db: Database, txId: Int64, tagIds: [Int64]) throws {
        for tagId in tagIds {
            var insert = try BoundStatement(db, cached: "INSERT INTO transaction_tags (tx_id, tag_id) VALUES (?, ?)")
            insert.bind(txId, at: 1)
            insert.bind(tagId, at: 2)
            try insert.execute()
        }
    }

    static func deleteTags(_ db: Database, txId: Int64) throws {
        try db.execute(cached: "DELETE FROM transaction_tags WHERE tx_id = ?", arguments: [txId])
    }

    /// The tag names (by name, regardless of case) and split parts (by position) of the
    /// transactions `ids`, each keyed by transaction id.
    static func tagsAndSplits(_ db: Database, ids: [Int64]) throws -> (tags: [Int64: [String]], splits: [Int64: [SplitPart]]) {
        guard !ids.isEmpty else { return ([:], [:]) }
        // One transaction (every write's reply) binds its id; a list binds its ids as a JSON array.
        let tagRows: [Row], splitRows: [Row]
        if ids.count == 1 {
            tagRows = try db.cachedRows(sql: "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id = ? ORDER BY g.name COLLATE NOCASE", arguments: [ids[0]])
            splitRows = try db.cachedRows(sql: "SELECT s.*, t.currency FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id = ? ORDER BY s.position", arguments: [ids[0]])
        } else {
            // The ids as one JSON array, so the statements are prepared once and cached, not
            // compiled anew for every count of ids.
            let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
            tagRows = try db.cachedRows(sql: "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id IN (SELECT value FROM json_each(?)) ORDER BY g.name COLLATE NOCASE", arguments: [list])
            splitRows = try db.cachedRows(sql: "SELECT s.*, t.currency FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id IN (SELECT value FROM json_each(?)) ORDER BY s.tx_id, s.position", arguments: [list])
        }
        var tags: [Int64: [String]] = [:]
        for row in tagRows { tags[row["tx_id"], default: []].append(row["name"]) }
        var splits: [Int64: [SplitPart]] = [:]
        for row in splitRows {
            splits[row["tx_id"], default: []].append(SplitPart(amount: InputRules.format(row["amount_minor"], row["currency"]), categoryId: row["category_id"], memo: row["memo"]))
        }
        return (tags, splits)
    }

    // MARK: tx.export

    /// The export's select list, every column in `Positions.exportOrder`'s places. `conversions`:
    /// with the snapshots' text (stored once each and joined by id, D372), or NULL in their
    /// place, for the exports that do not write them, without the look-ups.
    private static func exportSelection(conversions: Bool) -> String {
        """
        SELECT t.id, t.kind, t.wallet_id, t.amount_minor, t.currency, t.wallet_amount_minor, t.base_amount_minor, t.category_id,
               t.notes, t.date, t.attachment_path, t.counterparty_wallet_id, t.counterparty_tx_id, t.created_at, t.updated_at,
               \(conversions ? "sc.snapshot, sb.snapshot" : "NULL, NULL"), t.import_key, t.import_id, w.currency
        FROM transactions t JOIN wallets w ON w.id = t.wallet_id
        \(conversions ? "LEFT JOIN conversion_snapshots sc ON sc.id = t.conversion_id LEFT JOIN conversion_snapshots sb ON sb.id = t.base_conversion_id" : "")
        """
    }

    /// An export page in id order, after `after`. `conversions` false: `conversion` and
    /// `baseConversion` are nil.
    static func exportPage(_ db: Database, after: Int64, limit: Int, conversions: Bool) throws -> [TransactionRow] {
        try exportRows(Row.fetchCursor(db.cachedStatement(sql: exportSelection(conversions: conversions) + " WHERE t.id > ? ORDER BY t.id LIMIT ?"), arguments: [after, limit]),
                       limit: limit)
    }

    /// An export page in (date, id) order from the `transactions_by_date` index, after `after` when given.
    static func exportPageByDate(_ db: Database, after: (date: String, id: Int64)?, limit: Int, conversions: Bool) throws -> [TransactionRow] {
        guard let after else {
            return try exportRows(Row.fetchCursor(db.cachedStatement(sql: exportSelection(conversions: conversions) + " ORDER BY t.date, t.id LIMIT ?"), arguments: [limit]),
                                  limit: limit)
        }
        return try exportRows(Row.fetchCursor(db.cachedStatement(sql: exportSelection(conversions: conversions) + " WHERE (t.date, t.id) > (?, ?) ORDER BY t.date, t.id LIMIT ?"),
                                              arguments: [after.date, after.id, limit]), limit: limit)
    }

    /// Read by column position from the statement as it steps (looking each column up by name
    /// was a large part of a page, D260).
    private static func exportRows(_ cursor: RowCursor, limit: Int) throws -> [TransactionRow] {
        var rows: [TransactionRow] = []
        rows.reserveCapacity(limit)
        while let row = try cursor.next() { rows.append(TransactionRow(row: row, at: .exportOrder)) }
        return rows
    }

    /// The tags and split parts of an export page, keyed by transaction id, in the order
    /// `tagsAndSplits` gives them. Id order (`ids` nil): the page is every transaction with an id
    /// in `range` (after, last], so its tags and splits are those of that range. Date order: the
    /// page's ids, as a JSON array.
    static func exportTagsAndSplits(_ db: Database, range: (after: Int64, last: Int64), ids: [Int64]?) throws -> (tags: [Int64: [String]], splits: [Int64: [SplitPart]]) {
        let byDate = ids != nil
        let tagSQL = byDate
            ? "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id IN (SELECT value FROM json_each(?)) ORDER BY tt.tx_id, g.name COLLATE NOCASE"
            : "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id > ? AND tt.tx_id <= ? ORDER BY tt.tx_id, g.name COLLATE NOCASE"
        let splitSQL = byDate
            ? "SELECT s.tx_id, s.amount_minor, t.currency, s.category_id, s.memo FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id IN (SELECT value FROM json_each(?)) ORDER BY s.tx_id, s.position"
            : "SELECT s.tx_id, s.amount_minor, t.currency, s.category_id, s.memo FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id > ? AND s.tx_id <= ? ORDER BY s.tx_id, s.position"
        let arguments: StatementArguments = ids.map { ["[" + $0.map(String.init).joined(separator: ",") + "]"] } ?? [range.after, range.last]
        var tags: [Int64: [String]] = [:]
        let tagCursor = try Row.fetchCursor(db.cachedStatement(sql: tagSQL), arguments: arguments)
        while let row = try tagCursor.next() { tags[row[0], default: []].append(row[1]) }
        var splits: [Int64: [SplitPart]] = [:]
        let splitCursor = try Row.fetchCursor(db.cachedStatement(sql: splitSQL), arguments: arguments)
        while let row = try splitCursor.next() {
            splits[row[0], default: []].append(SplitPart(amount: InputRules.format(row[1], row[2]), categoryId: row[3], memo: row[4]))
        }
        return (tags, splits)
    }

    // MARK: Imports

    /// The highest id given so far (0 with none).
    static func maxId(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(id) FROM transactions") ?? 0
    }

    /// The transaction an import recorded in the wallet under `importKey`, if any.
    static func id(walletId: Int64, importKey: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM transactions WHERE wallet_id = ? AND import_key = ?", arguments: [walletId, importKey])
    }

    /// The transactions one import recorded, by id.
    static func ids(importId: String, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM transactions WHERE import_id = ? ORDER BY id", arguments: [importId])
    }

    /// What one import's transactions add to each wallet's balance (signed).
    static func walletEffects(importId: String, _ db: Database) throws -> [(walletId: Int64, effect: Int64)] {
        try Row.fetchAll(db, sql: "SELECT wallet_id, sum(wallet_amount_minor) AS effect FROM transactions WHERE import_id = ? GROUP BY wallet_id", arguments: [importId])
            .map { ($0["wallet_id"], $0["effect"]) }
    }

    /// Deletes one import's transactions (a transfer leg's other leg carries the import id too).
    static func deleteImport(_ importId: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM transactions WHERE import_id = ?", arguments: [importId])
    }

    // MARK: Sync's views

    /// A page of the ids sync sends as transactions of their own: neither transfer legs, nor a
    /// trade's cash, nor a liability's payment.
    static func ownIds(_ db: Database, after: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT id FROM transactions WHERE id > ? AND counterparty_tx_id IS NULL AND trade_id IS NULL AND liability_id IS NULL ORDER BY id LIMIT ?
            """, arguments: [after, limit])
    }

    /// Whether a transaction row is one of `ownIds`' (it exists, and is not a leg, trade cash or payment).
    static func isOwn(_ db: Database, id: Int64) throws -> Bool {
        try db.cachedValue(Bool.self, sql: """
            SELECT counterparty_tx_id IS NULL AND trade_id IS NULL AND liability_id IS NULL FROM transactions WHERE id = ?
            """, arguments: [id]) ?? false
    }

    /// A page of transfers' outgoing legs' ids.
    static func outgoingLegIds(_ db: Database, after: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT id FROM transactions WHERE id > ? AND counterparty_tx_id IS NOT NULL AND kind = 'expense' ORDER BY id LIMIT ?
            """, arguments: [after, limit])
    }

    /// The outgoing leg's id for either leg of a transfer; nil when `id` is not a transfer leg.
    static func outgoingLeg(_ db: Database, id: Int64) throws -> Int64? {
        guard let row = try db.cachedRow(sql: "SELECT kind, counterparty_tx_id FROM transactions WHERE id = ? AND counterparty_tx_id IS NOT NULL", arguments: [id]) else { return nil }
        return (row[0] as String) == TransactionKind.expense.rawValue ? id : row[1]
    }

    /// The other leg of a transfer leg; nil for a transaction that is no leg, or no transaction.
    static func counterpartyId(_ db: Database, id: Int64) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT counterparty_tx_id FROM transactions WHERE id = ?", arguments: [id])
    }

    /// Whether any transaction exists.
    static func any(_ db: Database) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM transactions)") == true
    }

    /// How many transactions there are (an export's first page says).
    static func count(_ db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions")
    }
}
