import GRDB

/// `split_subtree_counts`: per month and category, how many split transactions have at least one
/// part in that category or under it (`count`), and how many split parts lie there (`parts`).
/// `tx.list`'s count for a category reads both for the whole months of its range (D377, D385).
///
/// Why a table of its own: a split transaction with parts in two categories of the same subtree
/// counts once, so its count cannot be added up from per-category totals at read time; the
/// store used `count(DISTINCT)` over the split parts' index instead, the temporary B-tree of which
/// was most of a `tx.list` at a million (D385). `parts` is what `ledger_totals` counts for
/// split transactions (a row per part), so the count takes it off without reading the split
/// parts' index (D385). Each row is a category with its whole subtree, so moving a category under
/// another changes rows: `rebuild` runs after every move.
enum SplitSubtreeCounts {
    /// One split transaction's month and the categories of its parts, in order, a category once
    /// per part (two parts in Groceries are two parts there, and one transaction).
    struct Key: Hashable, Sendable {
        let month: String
        let partCategoryIds: [Int64]

        init(month: String, parts: some Sequence<Int64>) {
            self.month = month
            partCategoryIds = parts.sorted()
        }
    }

    /// Adds each key's change to its month's row of every category that has one of the key's
    /// parts in its subtree (the parts' categories themselves and their ancestors): to `count`
    /// once per key, to `parts` once per part.
    static func apply(_ db: Database, _ changes: [Key: Int64]) throws {
        guard !changes.isEmpty else { return }
        let tree = try CategoryTree(db)
        var rows: [RowKey: Change] = [:]
        for (key, change) in changes where change != 0 {
            let chains = key.partCategoryIds.map(tree.chain)
            // A set: two parts under one ancestor count once there as a transaction.
            for categoryId in Set(chains.joined()) { rows[RowKey(month: key.month, categoryId: categoryId), default: Change()].count += change }
            for categoryId in chains.joined() { rows[RowKey(month: key.month, categoryId: categoryId), default: Change()].parts += change }
        }
        let upsert = try BoundStatement(db, cached: """
            INSERT INTO split_subtree_counts (month, category_id, count, parts) VALUES (?, ?, ?, ?)
            ON CONFLICT (category_id, month) DO UPDATE SET count = count + excluded.count, parts = parts + excluded.parts
            """)
        for (key, change) in rows where change.count != 0 || change.parts != 0 {
            var statement = upsert.rebound()
            statement.bind(key.month, at: 1)
            statement.bind(key.categoryId, at: 2)
            statement.bind(change.count, at: 3)
            statement.bind(change.parts, at: 4)
            try statement.execute()
            if change.count < 0 || change.parts < 0 {
                // A row left with parts and no transaction (or the reverse) would be a miscount:
                // it stays, and the comparison with a recomputation shows it.
                try db.execute(cached: "DELETE FROM split_subtree_counts WHERE month = ? AND category_id = ? AND count = 0 AND parts = 0",
                               arguments: [key.month, key.categoryId])
            }
        }
    }

    /// Recomputes every row from the split parts and the category tree as it is now: after a
    /// category moves, and in the migration that adds `parts` (`LedgerTotals.rebuild` adds the
    /// transactions up through `apply` instead). A split part carries its transaction's date
    /// (D224). At a million transactions (124,606 parts) this took 0.6 s in `sqlite3`, which a
    /// category move now costs.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM split_subtree_counts;
            WITH RECURSIVE up(category_id, ancestor) AS (
                SELECT id, id FROM categories
                UNION SELECT up.category_id, c.parent_id FROM up JOIN categories c ON c.id = up.ancestor WHERE c.parent_id IS NOT NULL
            )
            INSERT INTO split_subtree_counts (month, category_id, count, parts)
            SELECT substr(s.date, 1, 7) AS month, up.ancestor, count(DISTINCT s.tx_id), count(*)
            FROM splits s JOIN up ON up.category_id = s.category_id
            GROUP BY month, up.ancestor;
            """)
    }

    private struct RowKey: Hashable {
        let month: String
        let categoryId: Int64
    }

    /// What one row gains (or loses): split transactions and split parts.
    private struct Change {
        var count: Int64 = 0
        var parts: Int64 = 0
    }
}
