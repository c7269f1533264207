import GRDB

/// `split_subtree_counts`: per month and category, how many split transactions have at least one
/// part in that category or under it. `tx.list`'s count for a category reads it for the whole
/// months of its range (D377).
///
/// Why a table of its own: a split transaction with parts in two categories of the same subtree
/// counts once, so its count cannot be added up from per-category totals at read time; the
/// store used `count(DISTINCT)` over the split parts' index instead, the temporary B-tree of which
/// was 1.3–2.5 ms of a 2.5 ms `tx.list` at a million. Each row is a category with its whole
/// subtree, so moving a category under another changes rows: `rebuild` runs after every move.
enum SplitSubtreeCounts {
    /// One split transaction's month and the categories of its parts, each once, in order.
    struct Key: Hashable, Sendable {
        let month: String
        let categoryIds: [Int64]

        init(month: String, parts: some Sequence<Int64>) {
            self.month = month
            categoryIds = Set(parts).sorted()
        }
    }

    /// Adds each key's change to its month's row of every category that has one of the key's
    /// categories in its subtree (the categories themselves and their ancestors), once per key.
    static func apply(_ db: Database, _ changes: [Key: Int64]) throws {
        guard !changes.isEmpty else { return }
        let tree = try CategoryTree(db)
        var counts: [RowKey: Int64] = [:]
        for (key, change) in changes where change != 0 {
            // A set: two parts under one ancestor count once there.
            let reached = Set(key.categoryIds.flatMap(tree.chain))
            for categoryId in reached { counts[RowKey(month: key.month, categoryId: categoryId), default: 0] += change }
        }
        let upsert = try BoundStatement(db, cached: """
            INSERT INTO split_subtree_counts (month, category_id, count) VALUES (?, ?, ?)
            ON CONFLICT (category_id, month) DO UPDATE SET count = count + excluded.count
            """)
        for (key, change) in counts where change != 0 {
            var statement = upsert.rebound()
            statement.bind(key.month, at: 1)
            statement.bind(key.categoryId, at: 2)
            statement.bind(change, at: 3)
            try statement.execute()
            if change < 0 {
                try db.execute(cached: "DELETE FROM split_subtree_counts WHERE month = ? AND category_id = ? AND count = 0", arguments: [key.month, key.categoryId])
            }
        }
    }

    /// Recomputes every row from the split parts and the category tree as it is now: after a
    /// category moves, in the migration that adds the table, and in `LedgerTotals.rebuild`. A
    /// split part carries its transaction's date (D224). At a million transactions (124,606
    /// parts) this took 0.6 s in `sqlite3`, which a category move now costs.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM split_subtree_counts;
            WITH RECURSIVE up(category_id, ancestor) AS (
                SELECT id, id FROM categories
                UNION SELECT up.category_id, c.parent_id FROM up JOIN categories c ON c.id = up.ancestor WHERE c.parent_id IS NOT NULL
            )
            INSERT INTO split_subtree_counts (month, category_id, count)
            SELECT month, ancestor, count(*) FROM (
                SELECT DISTINCT substr(s.date, 1, 7) AS month, up.ancestor AS ancestor, s.tx_id
                FROM splits s JOIN up ON up.category_id = s.category_id)
            GROUP BY month, ancestor;
            """)
    }

    private struct RowKey: Hashable {
        let month: String
        let categoryId: Int64
    }
}
