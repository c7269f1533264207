import Foundation
import GRDB
import LedgerlyCore

/// `tx.list`'s statements over `transactions` and `splits`: the rest of `TransactionRow`'s
/// statements (`TransactionStore.swift`), apart only for length (D454). A page's text depends
/// only on which filters are given, so each variant is prepared once per connection (D386, D455).
extension TransactionRow {
    /// `tx.list`'s filters, checked. `text` is never empty.
    struct ListFilter {
        var walletId: Int64?
        var categoryId: Int64?
        var tag: String?
        var text: String?
        var from: String?
        var to: String?
    }

    /// `tx.list`'s count of every match and its page (`limit` rows, newest first, after the
    /// keyset cursor `after` or `offset` rows in).
    static func list(_ db: Database, _ filter: ListFilter, after: (date: String, id: Int64)?, limit: Int, offset: Int) throws -> (total: Int, rows: [TransactionRow]) {
        // `others`: the conditions on a transaction's own row; the dates are kept apart, because a
        // category's page takes them from its indexes instead (`categoryPage`).
        var others: [String] = []
        var otherArguments: [any DatabaseValueConvertible] = []
        if let walletId = filter.walletId {
            others.append("t.wallet_id = ?")
            otherArguments.append(walletId)
        }
        if let tag = filter.tag {
            others.append("EXISTS (SELECT 1 FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id = t.id AND g.name = ?)")
            otherArguments.append(tag)
        }
        if let text = filter.text {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            others.append("t.notes LIKE ? ESCAPE '\\'")
            otherArguments.append("%\(escaped)%")
        }
        var dates: [String] = []
        var dateArguments: [any DatabaseValueConvertible] = []
        if let fromDay = filter.from {
            dates.append("t.date >= ?")
            dateArguments.append(fromDay)
        }
        if let toDay = filter.to {
            dates.append("t.date <= ?")
            dateArguments.append(toDay)
        }
        let range = CategoryRange(from: filter.from ?? "0000-01-01", to: filter.to ?? "9999-12-31")
        let prefix = Self.categorySubtree + " "
        func condition(_ conditions: [String]) -> String {
            conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        }
        let total: Int
        if let categoryId = filter.categoryId {
            if others.isEmpty {
                total = try categoryCount(db, categoryId: categoryId, range: range)
            } else {
                let indexed = "(t.category_id IN subtree OR t.id IN (SELECT s.tx_id FROM splits s WHERE s.category_id IN subtree AND s.date BETWEEN ? AND ?))"
                total = try db.cachedValue(Int.self, sql: "\(prefix)SELECT count(*) FROM transactions t \(condition(others + dates + [indexed]))",
                                           arguments: StatementArguments([categoryId] + otherArguments + dateArguments + [range.from, range.to])) ?? 0
            }
        } else {
            total = try db.cachedValue(Int.self, sql: "SELECT count(*) FROM transactions t \(condition(others + dates))", arguments: StatementArguments(otherArguments + dateArguments)) ?? 0
        }
        let keyset = after == nil ? [] : ["(t.date < ? OR (t.date = ? AND t.id < ?))"]
        let keysetArguments: [any DatabaseValueConvertible] = after.map { [$0.date, $0.date, $0.id] } ?? []
        // The pages' statements are kept by the connection: their text depends only on which
        // filters are given, and preparing one was an eighth of a page at a million (D386).
        let rows: [TransactionRow]
        if let categoryId = filter.categoryId, total <= 10_000 {
            rows = try categoryPage(db, categoryId: categoryId, range: range, after: after, others: (others, otherArguments), limit: limit, offset: offset)
        } else if let categoryId = filter.categoryId {
            // A common category: walk the date index down and test each row's category (`EXISTS`
            // keeps the walk), so a page stops after a few hundred rows instead of sorting all
            // its matches.
            let walked = "(t.category_id IN subtree OR EXISTS (SELECT 1 FROM splits s WHERE s.tx_id = t.id AND s.category_id IN subtree))"
            rows = try TransactionRow.rows(
                of: db.cachedStatement(sql: "\(prefix)SELECT \(selection) FROM transactions t \(selectionJoins) \(condition(others + dates + keyset + [walked])) ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?"),
                arguments: StatementArguments([categoryId] + otherArguments + dateArguments + keysetArguments + [limit, offset]))
        } else {
            rows = try TransactionRow.rows(
                of: db.cachedStatement(sql: "SELECT \(selection) FROM transactions t \(selectionJoins) \(condition(others + dates + keyset)) ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?"),
                arguments: StatementArguments(otherArguments + dateArguments + keysetArguments + [limit, offset]))
        }
        return (total, rows)
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
    /// most of a page. The two arms never share a transaction (one has a category or split parts,
    /// never both), so only the split parts are made distinct (a transaction with parts in two of
    /// the subtree's categories) and the arms are joined with `UNION ALL`: one sort instead of
    /// two. `others`: conditions on the row (wallet, tag, notes), tested after the read; with
    /// none, the page is cut before it.
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
            SELECT \(selection)
            FROM (SELECT id, date FROM matches \(keyset) ORDER BY date DESC, id DESC \(cutFirst ? page : "")) m
            JOIN transactions t ON t.id = m.id \(selectionJoins)
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
    ///   again; in the partial months at either end, the (category, date) index (D358). The
    ///   months' totals are a few hundred rows where the index holds tens of thousands of entries.
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
}
