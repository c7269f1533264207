import Foundation
import GRDB
@testable import LedgerlyStore
import Testing

/// `v24-split-subtree-parts` on a database whose `split_subtree_counts` was filled by v23 before
/// v24 existed (D385): every row gets its split parts, counted once per part (two parts in one
/// category are two), and the rows equal what the store keeps as it writes (`LedgerTotals`).
@Suite struct SplitSubtreePartsMigrationTests {
    @Test func everyRowGetsItsPartsAndEqualsTheKeptCounts() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("split-parts-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path)
        let migrator = StoreMigrations.migrator()
        try migrator.migrate(queue, upTo: "v23-split-subtree-counts")
        // Food (1) with Groceries (2) under it, and Rent (3). March: two parts in Groceries, and
        // one in Groceries with one in Rent. April: one in Food and one in Rent.
        let parts: [(tx: Int64, date: String, categories: [Int64])] = [(1, "2026-03-10", [2, 2]), (2, "2026-03-11", [2, 3]), (3, "2026-04-02", [1, 3])]
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO wallets (id, name, currency, type, starting_balance_minor, balance_minor, created_at, updated_at)
                VALUES (1, 'Checking', 'EUR', 'bank', 0, 0, 'now', 'now');
                INSERT INTO categories (id, name, kind, parent_id, created_at, updated_at) VALUES
                    (1, 'Food', 'expense', NULL, 'now', 'now'), (2, 'Groceries', 'expense', 1, 'now', 'now'), (3, 'Rent', 'expense', NULL, 'now', 'now');
                """)
            for transaction in parts {
                try db.execute(sql: """
                    INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, date, created_at, updated_at)
                    VALUES (?, 'expense', 1, ?, 'EUR', ?, ?, 'now', 'now')
                    """, arguments: [transaction.tx, 100 * transaction.categories.count, -100 * transaction.categories.count, transaction.date])
                for (position, category) in transaction.categories.enumerated() {
                    try db.execute(sql: "INSERT INTO splits (tx_id, position, amount_minor, category_id, date) VALUES (?, ?, 100, ?, ?)",
                                   arguments: [transaction.tx, position, category, transaction.date])
                }
            }
            // The rows as v23 filled them before v24 existed: split transactions only.
            try db.execute(sql: """
                INSERT INTO split_subtree_counts (month, category_id, count) VALUES
                    ('2026-03', 1, 2), ('2026-03', 2, 2), ('2026-03', 3, 1), ('2026-04', 1, 1), ('2026-04', 3, 1)
                """)
        }
        try migrator.migrate(queue)
        let query = "SELECT month, category_id, count, parts FROM split_subtree_counts ORDER BY month, category_id"
        let migrated = try queue.read { db in try Row.fetchAll(db, sql: query) }
        let expected = ["2026-03 1: 2 transactions, 3 parts", "2026-03 2: 2 transactions, 3 parts", "2026-03 3: 1 transactions, 1 parts",
                        "2026-04 1: 1 transactions, 1 parts", "2026-04 3: 1 transactions, 1 parts"]
        let described = migrated.map { row -> String in
            let month: String = row["month"], category: Int64 = row["category_id"], count: Int64 = row["count"], parts: Int64 = row["parts"]
            return "\(month) \(category): \(count) transactions, \(parts) parts"
        }
        #expect(described == expected)
        // What `LedgerTotals` keeps as transactions are written (through `SplitSubtreeCounts.apply`).
        let kept = try queue.write { db -> [Row] in
            var rows: [Row] = []
            try db.inSavepoint {
                try LedgerTotals.rebuild(db)
                rows = try Row.fetchAll(db, sql: query)
                return .rollback
            }
            return rows
        }
        #expect(kept == migrated)
    }
}
