import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.create`, `tx.get`, `tx.list`, `tx.update`, `tx.delete`, `tx.transfer`.
///
/// Amounts are stored positive in minor units; `wallet_amount_minor` is the signed effect on the
/// wallet, which the wallet's maintained `balance_minor` sums. Both change in the same SQL
/// transaction, so a balance can never disagree with its transactions.
enum TransactionHandlers {
    static let maximumSplitParts = 100

    // MARK: Reads

    static func fetch(_ db: Database, id: Int64, field: FieldPath = .body("id")) throws -> TransactionRecord {
        guard let row = try db.cachedRow(sql: "SELECT \(TransactionRow.selection) FROM transactions t \(TransactionRow.selectionJoins) WHERE t.id = ?", arguments: [id]) else {
            throw LedgerError.notFound("there is no transaction \(id)", field: field)
        }
        return try records(db, stored: [TransactionRow(row: row)])[0]
    }

    static func get(_ request: TransactionGetRequest, _ db: Database) throws -> TransactionRecord {
        try fetch(db, id: try InputRules.positiveId(request.id, field: .body("id")))
    }

    static func list(_ request: TransactionListRequest, _ db: Database) throws -> TransactionListReply {
        // `others`: the conditions on a transaction's own row; the dates are kept apart, because a
        // category's page takes them from its indexes instead (`categoryPage`).
        var others: [String] = []
        var otherArguments: [any DatabaseValueConvertible] = []
        if let walletId = try InputRules.optionalId(request.walletId, field: .body("walletId")) {
            others.append("t.wallet_id = ?")
            otherArguments.append(walletId)
        }
        if let categoryId = try InputRules.optionalId(request.categoryId, field: .body("categoryId")) {
            try CategoryRow.requireExists(db, id: categoryId, field: .body("categoryId"))
        }
        if let tag = request.tag {
            others.append("EXISTS (SELECT 1 FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id = t.id AND g.name = ?)")
            otherArguments.append(tag)
        }
        if let text = request.text, !text.isEmpty {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            others.append("t.notes LIKE ? ESCAPE '\\'")
            otherArguments.append("%\(escaped)%")
        }
        let fromDay = try request.from.map { try InputRules.date($0, field: .body("from")).description }
        let toDay = try request.to.map { try InputRules.date($0, field: .body("to")).description }
        var dates: [String] = []
        var dateArguments: [any DatabaseValueConvertible] = []
        if let fromDay {
            dates.append("t.date >= ?")
            dateArguments.append(fromDay)
        }
        if let toDay {
            dates.append("t.date <= ?")
            dateArguments.append(toDay)
        }
        let limit = request.limit ?? 100
        guard (1...10_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 10000, got \(limit)", field: .body("limit")) }
        let offset = request.offset ?? 0
        guard offset >= 0 else { throw LedgerError.invalid("body.offset must not be negative", field: .body("offset")) }
        var after: (date: String, id: Int64)?
        if let cursor = request.after {
            guard request.offset == nil else { throw LedgerError.invalid("give body.after or body.offset, not both", field: .body("after")) }
            after = (try InputRules.date(cursor.date, field: .body("after").member("date")).description,
                     try InputRules.positiveId(cursor.id, field: .body("after").member("id")))
        }
        let range = CategoryRange(from: fromDay ?? "0000-01-01", to: toDay ?? "9999-12-31")
        let prefix = Self.categorySubtree + " "
        func filter(_ conditions: [String]) -> String {
            conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        }
        let total: Int
        if let categoryId = request.categoryId {
            if others.isEmpty {
                total = try categoryCount(db, categoryId: categoryId, range: range)
            } else {
                let indexed = "(t.category_id IN subtree OR t.id IN (SELECT s.tx_id FROM splits s WHERE s.category_id IN subtree AND s.date BETWEEN ? AND ?))"
                total = try db.cachedValue(Int.self, sql: "\(prefix)SELECT count(*) FROM transactions t \(filter(others + dates + [indexed]))",
                                           arguments: StatementArguments([categoryId] + otherArguments + dateArguments + [range.from, range.to])) ?? 0
            }
        } else {
            total = try db.cachedValue(Int.self, sql: "SELECT count(*) FROM transactions t \(filter(others + dates))", arguments: StatementArguments(otherArguments + dateArguments)) ?? 0
        }
        let keyset = after == nil ? [] : ["(t.date < ? OR (t.date = ? AND t.id < ?))"]
        let keysetArguments: [any DatabaseValueConvertible] = after.map { [$0.date, $0.date, $0.id] } ?? []
        // One row more than the page says whether there is a next page. The pages' statements are
        // kept by the connection: their text depends only on which filters are given, and
        // preparing one was an eighth of a page at a million (D386).
        let rows: [TransactionRow]
        if let categoryId = request.categoryId, total <= 10_000 {
            rows = try categoryPage(db, categoryId: categoryId, range: range, after: after, others: (others, otherArguments), limit: limit + 1, offset: offset)
        } else if let categoryId = request.categoryId {
            // A common category: walk the date index down and test each row's category (`EXISTS`
            // keeps the walk), so a page stops after a few hundred rows instead of sorting all
            // its matches.
            let walked = "(t.category_id IN subtree OR EXISTS (SELECT 1 FROM splits s WHERE s.tx_id = t.id AND s.category_id IN subtree))"
            rows = try TransactionRow.rows(
                of: db.cachedStatement(sql: "\(prefix)SELECT \(TransactionRow.selection) FROM transactions t \(TransactionRow.selectionJoins) \(filter(others + dates + keyset + [walked])) ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?"),
                arguments: StatementArguments([categoryId] + otherArguments + dateArguments + keysetArguments + [limit + 1, offset]))
        } else {
            rows = try TransactionRow.rows(
                of: db.cachedStatement(sql: "SELECT \(TransactionRow.selection) FROM transactions t \(TransactionRow.selectionJoins) \(filter(others + dates + keyset)) ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?"),
                arguments: StatementArguments(otherArguments + dateArguments + keysetArguments + [limit + 1, offset]))
        }
        let shown = Array(rows.prefix(limit))
        let next = rows.count > limit ? shown.last.map { TransactionListCursor(date: $0.date, id: $0.id) } : nil
        return TransactionListReply(transactions: try records(db, stored: shown), total: total, next: next)
    }

    /// `subtree`: the category bound first and all its descendants, for the category filters.
    private static let categorySubtree = "WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN subtree ON c.parent_id = subtree.id)"

    /// The days a category's matches are looked for in, both ends included.
    private struct CategoryRange {
        let from: String
        let to: String
    }

    /// A page of a category with few matches (`tx.list`'s count ≤ 10,000): the matches' ids and
    /// dates come from the two covering indexes (transactions and split parts by category and
    /// date), are ordered, and only the page's rows are then read (D341). Ordering the full rows
    /// of every match, and testing every split part of the category ever made for its date, was
    /// 14 ms of a 15 ms page at 100,000 transactions. The two arms never share a transaction (one
    /// has a category or split parts, never both), so only the split parts are made distinct (a
    /// transaction with parts in two of the subtree's categories) and the arms are joined with
    /// `UNION ALL`: one sort instead of two. `others`: conditions on the row (wallet, tag, notes),
    /// tested after the read; with none, the page is cut before it.
    private static func categoryPage(_ db: Database, categoryId: Int64, range: CategoryRange, after: (date: String, id: Int64)?,
                                     others: (conditions: [String], arguments: [any DatabaseValueConvertible]),
                                     limit: Int, offset: Int) throws -> [TransactionRow] {
        let keyset = after == nil ? "" : "WHERE (date < ? OR (date = ? AND id < ?))"
        let keysetArguments: [any DatabaseValueConvertible] = after.map { [$0.date, $0.date, $0.id] } ?? []
        let cutFirst = others.conditions.isEmpty
        let page = "LIMIT ? OFFSET ?"
        let sql = """
            \(categorySubtree),
            matches(id, date) AS (
                SELECT id, date FROM transactions WHERE category_id IN subtree AND date BETWEEN ? AND ?
                UNION ALL SELECT DISTINCT tx_id, date FROM splits WHERE category_id IN subtree AND date BETWEEN ? AND ?)
            SELECT \(TransactionRow.selection)
            FROM (SELECT id, date FROM matches \(keyset) ORDER BY date DESC, id DESC \(cutFirst ? page : "")) m
            JOIN transactions t ON t.id = m.id \(TransactionRow.selectionJoins)
            \(others.conditions.isEmpty ? "" : "WHERE " + others.conditions.joined(separator: " AND "))
            ORDER BY m.date DESC, m.id DESC \(cutFirst ? "" : page)
            """
        let arguments: [any DatabaseValueConvertible] = [categoryId, range.from, range.to, range.from, range.to] + keysetArguments
            + (cutFirst ? [limit, offset] : others.arguments + [limit, offset])
        return try TransactionRow.rows(of: db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
    }

    /// Matches of a category (with its descendants and split parts) between optional dates. A
    /// transaction has a category or split parts, never both (the writer refuses both, and giving
    /// parts clears the category), so the two kinds are counted apart and added (D224):
    /// - transactions with a category in the subtree: in the whole months of the range, the kept
    ///   `ledger_totals` counts, which hold one per transaction and one per split part, so the
    ///   subtree's split parts of those months (`split_subtree_counts.parts`, D385) are taken off
    ///   again; in the partial months at either end, the (category, date) index (D358). Counting
    ///   35,000 index entries took 1.4 ms of a `tx list` at a million; the months' totals are a
    ///   few hundred rows.
    /// - transactions with split parts in the subtree: in the whole months, the kept
    ///   `split_subtree_counts` of the category itself (each row counts a transaction once however
    ///   many of its parts the subtree holds, D377); in the partial months, `count(DISTINCT)` over
    ///   the split parts' (category, date) index. A split transaction's parts carry its date, so
    ///   none is counted in two of these day ranges.
    ///
    /// The whole months' two kept figures are read from one row per month: `count - parts`.
    private static func categoryCount(_ db: Database, categoryId: Int64, range: CategoryRange) throws -> Int {
        let months = WholeMonthsRange(from: range.from, to: range.to)
        return try db.cachedValue(Int.self, sql: """
            \(categorySubtree)
            SELECT (SELECT coalesce(sum(count), 0) FROM ledger_totals WHERE category_id IN subtree AND month BETWEEN ?2 AND ?3)
                 + (SELECT coalesce(sum(count - parts), 0) FROM split_subtree_counts WHERE category_id = ?1 AND month BETWEEN ?2 AND ?3)
                 + (SELECT count(*) FROM transactions WHERE category_id IN subtree AND date BETWEEN ?4 AND ?5)
                 + (SELECT count(*) FROM transactions WHERE category_id IN subtree AND date BETWEEN ?6 AND ?7)
                 + (SELECT count(DISTINCT tx_id) FROM splits WHERE category_id IN subtree AND date BETWEEN ?4 AND ?5)
                 + (SELECT count(DISTINCT tx_id) FROM splits WHERE category_id IN subtree AND date BETWEEN ?6 AND ?7)
            """, arguments: [categoryId, months.firstMonth, months.lastMonth,
                             months.leading.from, months.leading.to, months.trailing.from, months.trailing.to]) ?? 0
    }

    // MARK: Writes

    static func create(_ request: TransactionCreateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let writer = TransactionWriter(db: context.db)
        let id = try writer.insert(request, &context)
        try writer.finish()
        let record = try fetch(context.db, id: id)
        try context.record(.txCreated, id: String(id), data: record)
        return record
    }

    static func update(_ request: TransactionUpdateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let old = try fetch(db, id: request.id)
        try requireNotTradeCash(db, id: old.id, doing: "changed")
        // Out of the totals as they were, back in as they are now (date, amount or category may change).
        let touched = [old.id] + (old.transfer.map { [$0.counterpartyTransactionId] } ?? [])
        try LedgerTotals.apply(db, ids: touched, sign: -1)
        let updated = try applyUpdate(request, to: old, &context)
        try LedgerTotals.apply(db, ids: touched, sign: 1)
        return updated
    }

    private static func applyUpdate(_ request: TransactionUpdateRequest, to old: TransactionRecord, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        if let link = old.transfer {
            let forbidden = [("kind", request.kind != nil), ("walletId", request.walletId != nil), ("amount", request.amount != nil),
                             ("categoryId", request.categoryId != nil), ("splits", request.splits != nil)]
            if let field = forbidden.first(where: \.1)?.0 {
                throw LedgerError.invalid("transaction \(old.id) is a transfer leg: only notes, date, tags and attachment can change; delete the transfer and record it again to change body.\(field)", field: .body(field))
            }
            // Both legs describe one transfer: they keep the same date, notes, tags and attachment.
            let updated = try updateDescription(request, of: old, &context)
            _ = try updateDescription(request, of: try fetch(db, id: link.counterpartyTransactionId), &context)
            return updated
        }
        let oldWallet = try WalletRow.find(db, id: old.walletId).record
        let wallet = request.walletId == nil || request.walletId == old.walletId
            ? oldWallet
            : try WalletRow.active(db, id: request.walletId!, field: .body("walletId")).record
        // The kept rates convert into the old wallet's currency; a move keeps them valid only
        // within that currency.
        guard wallet.currency == oldWallet.currency else {
            throw LedgerError.invalid("wallet '\(wallet.name)' is in \(wallet.currency), not \(oldWallet.currency): delete the transaction and record it again in that wallet", field: .body("walletId"))
        }
        let currency = try InputRules.currency(old.currency, field: .body("currency"))
        let kind = request.kind ?? old.kind
        let amount = try InputRules.positiveAmount(request.amount ?? old.amount, currency: currency, field: .body("amount"))
        if let categoryId = request.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: .body("categoryId")) }
        let splits: [(Money, SplitPart)]
        do {
            splits = try validSplits(request.splits ?? old.splits, total: amount, db: db)
        } catch let error as LedgerError where request.splits == nil {
            throw LedgerError.invalid("\(error.reason); send new splits together with the new amount", field: .body("amount"))
        }
        // A transaction has a category or splits: new splits clear the category, and a new
        // category needs the splits cleared in the same request.
        if request.categoryId != nil && !splits.isEmpty {
            throw LedgerError.invalid("transaction \(old.id) is split: clear its splits (body.splits = []) to give it one category", field: .body("categoryId"))
        }
        let categoryId = splits.isEmpty ? (request.categoryId ?? old.categoryId) : nil
        let oldEffect = try db.cachedValue(Int64.self, sql: "SELECT wallet_amount_minor FROM transactions WHERE id = ?", arguments: [old.id]) ?? 0
        let converted = try TransactionConversion.reapply(
            amount: amount, walletCurrency: try InputRules.currency(wallet.currency, field: .body("walletId")),
            conversion: old.conversion, baseConversion: old.baseConversion, base: old.baseCurrency)
        let effect = kind.sign * converted.walletMoney.minorUnits

        try db.execute(
            cached: "UPDATE transactions SET kind = ?, wallet_id = ?, amount_minor = ?, wallet_amount_minor = ?, base_amount_minor = ?, category_id = ? WHERE id = ?",
            arguments: [kind.rawValue, wallet.id, amount.minorUnits, effect, converted.baseMinorUnits.map { kind.sign * $0 }, categoryId, old.id])
        if request.splits != nil {
            try db.execute(cached: "DELETE FROM splits WHERE tx_id = ?", arguments: [old.id])
            try writeSplits(db, txId: old.id, date: old.date, splits: splits)
        }
        try WalletRow.adjustBalance(db, walletId: old.walletId, by: -oldEffect)
        try WalletRow.adjustBalance(db, walletId: wallet.id, by: effect)
        return try updateDescription(request, of: old, &context)
    }

    /// Applies the fields every transaction may change (notes, date, tags, attachment), stamps
    /// the update time and logs `tx.updated` with the transaction as it now is.
    private static func updateDescription(_ request: TransactionUpdateRequest, of old: TransactionRecord, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let date = try InputRules.date(request.date ?? old.date, field: .body("date"))
        let notes = try request.notes.map { try InputRules.optionalText($0, field: .body("notes")) } ?? old.notes
        let attachment = try request.attachmentPath.map { try InputRules.optionalText($0, field: .body("attachmentPath"), limit: 4_096) } ?? old.attachmentPath
        try db.execute(
            cached: "UPDATE transactions SET notes = ?, date = ?, attachment_path = ?, updated_at = ? WHERE id = ?",
            arguments: [notes, date.description, attachment, context.now, old.id])
        if date.description != old.date {
            try db.execute(cached: "UPDATE splits SET date = ? WHERE tx_id = ?", arguments: [date.description, old.id])
        }
        if let tags = request.tags {
            let tagIds = try TagHandlers.resolve(tags, field: .body("tags"), &context)
            try db.execute(cached: "DELETE FROM transaction_tags WHERE tx_id = ?", arguments: [old.id])
            try writeTags(db, txId: old.id, tagIds: tagIds)
        }
        let record = try fetch(db, id: old.id)
        try context.record(.txUpdated, id: String(old.id), data: record)
        return record
    }

    static func delete(_ request: TransactionDeleteRequest, _ context: inout WriteContext) throws -> TransactionDeleteReply {
        let db = context.db
        let first = try fetch(db, id: request.id)
        try requireNotTradeCash(db, id: first.id, doing: "deleted")
        var doomed = [first]
        if let link = first.transfer { doomed.append(try fetch(db, id: link.counterpartyTransactionId)) }
        try LedgerTotals.apply(db, ids: doomed.map(\.id), sign: -1)
        for transaction in doomed {
            let effect = try db.cachedValue(Int64.self, sql: "SELECT wallet_amount_minor FROM transactions WHERE id = ?", arguments: [transaction.id]) ?? 0
            try db.execute(cached: "DELETE FROM transactions WHERE id = ?", arguments: [transaction.id])
            try WalletRow.adjustBalance(db, walletId: transaction.walletId, by: -effect)
            try context.record(.txDeleted, id: String(transaction.id), data: transaction)
        }
        let withdrawn = try GoalHandlers.withdrawContributions(movedBy: doomed.map(\.id), &context)
        return TransactionDeleteReply(deletedIds: doomed.map(\.id), withdrawnContributions: withdrawn)
    }

    static func transfer(_ request: TransferCreateRequest, _ context: inout WriteContext) throws -> TransferReply {
        let db = context.db
        let writer = TransactionWriter(db: db)
        let legIds = try writer.insertTransfer(request, &context)
        try writer.finish()
        let reply = TransferReply(outgoing: try fetch(db, id: legIds[0]), incoming: try fetch(db, id: legIds[1]))
        try context.record(.txCreated, id: String(legIds[0]), data: reply.outgoing)
        try context.record(.txCreated, id: String(legIds[1]), data: reply.incoming)
        return reply
    }

    // MARK: Helpers

    /// A trade's cash moves with its trade: changing it alone would leave the trade's figures and
    /// the wallet disagreeing in silence.
    /// A liability payment likewise moves with its entry in the liability's history.
    static func requireNotTradeCash(_ db: Database, id: Int64, doing change: String) throws {
        if let trade = try db.cachedValue(Int64.self, sql: "SELECT trade_id FROM transactions WHERE id = ?", arguments: [id]) {
            throw LedgerError.conflict("transaction \(id) is the cash of investment trade \(trade) and cannot be \(change) on its own: delete the trade (`ledgerly invest delete \(trade)`) and record it again", field: .body("id"))
        }
        if let liability = try db.cachedValue(Int64.self, sql: "SELECT liability_id FROM transactions WHERE id = ?", arguments: [id]) {
            throw LedgerError.conflict("transaction \(id) is a payment of liability \(liability) and cannot be \(change) on its own: it lowered the liability's balance; record a correcting `ledgerly liability revalue` instead", field: .body("id"))
        }
    }

    /// `requireCategory` checks a part's category (a bulk writer passes one that remembers).
    static func validSplits(_ parts: [SplitPart], total: Money, db: Database, requireCategory: ((Int64, FieldPath) throws -> Void)? = nil) throws -> [(Money, SplitPart)] {
        guard !parts.isEmpty else { return [] }
        guard parts.count >= 2 else {
            throw LedgerError.invalid("a split needs at least two parts; use body.categoryId for a single category", field: .body("splits"))
        }
        guard parts.count <= maximumSplitParts else {
            throw LedgerError.invalid("a split has at most \(maximumSplitParts) parts, got \(parts.count)", field: .body("splits"))
        }
        // Each part is below InputRules.maximumMinorUnits, so this many of them cannot overflow.
        var sum: Int64 = 0
        var validated: [(Money, SplitPart)] = []
        for (index, part) in parts.enumerated() {
            let field = FieldPath.body("splits")[index]
            let money = try InputRules.positiveAmount(part.amount, currency: total.currency, field: field.member("amount"))
            if let requireCategory {
                try requireCategory(part.categoryId, field.member("categoryId"))
            } else {
                try CategoryRow.requireExists(db, id: part.categoryId, field: field.member("categoryId"))
            }
            let memo = try InputRules.optionalText(part.memo, field: field.member("memo"), limit: 1_000)
            sum += money.minorUnits
            validated.append((money, SplitPart(amount: money.decimalString, categoryId: part.categoryId, memo: memo)))
        }
        guard sum == total.minorUnits else {
            let parts = Money.format(minorUnits: sum, exponent: total.currency.exponent)
            throw LedgerError.invalid("the split parts add up to \(parts) \(total.currency.code) but the amount is \(total.decimalString) \(total.currency.code)", field: .body("splits"))
        }
        return validated
    }

    static func writeTags(_ db: Database, txId: Int64, tagIds: [Int64]) throws {
        for tagId in tagIds {
            var insert = try BoundStatement(db, cached: "INSERT INTO transaction_tags (tx_id, tag_id) VALUES (?, ?)")
            insert.bind(txId, at: 1)
            insert.bind(tagId, at: 2)
            try insert.execute()
        }
    }

    /// Split parts carry their transaction's date (kept equal by `updateDescription`) so a
    /// category's matches in a date range are counted from one index (D224).
    static func writeSplits(_ db: Database, txId: Int64, date: String, splits: [(Money, SplitPart)]) throws {
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

    /// Builds records for rows, loading tags and splits for all of them in two queries.
    static func records(_ db: Database, stored rows: [TransactionRow]) throws -> [TransactionRecord] {
        guard !rows.isEmpty else { return [] }
        let ids = rows.map(\.id)
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
        let base = try SettingsHandlers.baseCurrency(db)
        // Transactions of a day share a few rate snapshots: each stored text is decoded once.
        var snapshots: [String: RateSnapshot] = [:]
        func snapshot(_ text: String?) -> RateSnapshot? {
            guard let text else { return nil }
            if let known = snapshots[text] { return known }
            let decoded = TransactionConversion.snapshot(text)
            snapshots[text] = decoded
            return decoded
        }
        return rows.map { stored in
            let id = stored.id
            return TransactionRecord(
                id: id, kind: TransactionKind(rawValue: stored.kind) ?? .expense, walletId: stored.walletId,
                amount: InputRules.format(stored.amountMinor, stored.currency), currency: stored.currency,
                categoryId: stored.categoryId, notes: stored.notes, date: stored.date, tags: tags[id] ?? [],
                attachmentPath: stored.attachmentPath,
                transfer: stored.counterpartyWalletId.flatMap { wallet in
                    stored.counterpartyTransactionId.map { TransferLink(counterpartyWalletId: wallet, counterpartyTransactionId: $0) }
                },
                splits: splits[id] ?? [],
                walletAmount: InputRules.format(Int64(stored.walletAmountMinor.magnitude), stored.walletCurrency),
                baseAmount: base.flatMap { base in stored.baseAmountMinor.map { InputRules.format(Int64($0.magnitude), base) } }, baseCurrency: base,
                conversion: snapshot(stored.conversion), baseConversion: snapshot(stored.baseConversion),
                createdAt: stored.createdAt, updatedAt: stored.updatedAt, importKey: stored.importKey, importId: stored.importId)
        }
    }
}
