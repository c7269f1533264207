import GRDB
import LedgerlyCore

/// Sums kept in the same SQL transaction as every change to a transaction, in three tables:
/// - `ledger_totals`: per month, wallet, category, kind, transfer flag and currency (balances on
///   a past day, budgets, net worth);
/// - `category_totals`: the same without the wallet and without transfers, one row per month,
///   category, kind and currency (`report.categories`, `report.cashflow`);
/// - `payee_totals`: per month, kind and exact note text, transfers left out (`report.payees`);
/// and, through `SplitSubtreeCounts`, how many split transactions each category's subtree has per
/// month (`tx.list`'s count).
///
/// Why: a report over the whole history would otherwise scan every transaction (half a second at
/// a million, docs/measured-limits.md); the totals tables have a few thousand rows, so every report
/// reads them in milliseconds. `category_totals` exists beside `ledger_totals` because grouping
/// the wallets away at read time sorted tens of thousands of rows per report (D222).
/// Split parts are kept in their own categories with their shares of the wallet and base amounts
/// (`ProportionalShares`, the rule budgets use). All sums are signed effects: income positive,
/// expense negative; `payee_totals` keeps the transaction's whole base amount, as the payee report
/// always counted it.
struct LedgerTotals {
    struct Key: Hashable {
        let month: String
        let walletId: Int64
        /// 0 for no category.
        let categoryId: Int64
        let kind: String
        let transfer: Bool
        let currency: String
    }

    struct Sums {
        var count: Int64 = 0
        var amount: Int64 = 0
        var wallet: Int64 = 0
        var base: Int64 = 0
        var missingBase: Int64 = 0

        /// Binds count, amount, (wallet,) base and missing base from parameter `first` on, in
        /// the order the `ledger_totals` and `category_totals` upserts name their columns.
        func bind(to statement: inout BoundStatement, from first: Int32, wallet withWallet: Bool) {
            statement.bind(count, at: first)
            statement.bind(amount, at: first + 1)
            let next = withWallet ? first + 3 : first + 2
            if withWallet { statement.bind(wallet, at: first + 2) }
            statement.bind(base, at: next)
            statement.bind(missingBase, at: next + 1)
        }

        /// One transaction's part, signed by `sign`. `amount` and `wallet` are left alone with
        /// `countsAmounts` false (the payee totals keep counts and base amounts only). Every sum
        /// is worked out before any is changed.
        mutating func add(sign: Int64, amount: Int64, wallet: Int64, base: Int64?, countsMissingBase: Bool, countsAmounts: Bool = true) throws {
            let newAmount = countsAmounts ? try CheckedMinorUnits.add(self.amount, sign * amount) : self.amount
            let newWallet = countsAmounts ? try CheckedMinorUnits.add(self.wallet, sign * wallet) : self.wallet
            let newBase = try base.map { try CheckedMinorUnits.add(self.base, sign * $0) } ?? self.base
            count += sign
            self.amount = newAmount
            self.wallet = newWallet
            self.base = newBase
            if base == nil && countsMissingBase { missingBase += sign }
        }

        /// Another set of sums of the same row, added.
        mutating func add(_ other: Sums) throws {
            let newAmount = try CheckedMinorUnits.add(amount, other.amount)
            let newWallet = try CheckedMinorUnits.add(wallet, other.wallet)
            let newBase = try CheckedMinorUnits.add(base, other.base)
            count += other.count
            amount = newAmount
            wallet = newWallet
            base = newBase
            missingBase += other.missingBase
        }
    }

    /// A `category_totals` row: a `ledger_totals` key without the wallet (transfers are not kept).
    struct CategoryKey: Hashable {
        let month: String
        let categoryId: Int64
        let kind: String
        let currency: String
    }

    /// A `payee_totals` row. The note is kept exactly; the report groups notes that differ only
    /// in ASCII case (SQLite's NOCASE) when it reads, so no spelling is lost here.
    struct PayeeKey: Hashable {
        let month: String
        let kind: String
        let notes: String
    }

    /// A transaction as the totals see it.
    struct Entry {
        let date: String
        let walletId: Int64
        let categoryId: Int64?
        let kind: TransactionKind
        let transfer: Bool
        let currency: String
        /// Positive, in `currency`.
        let amountMinor: Int64
        /// Signed effect on the wallet.
        let walletEffect: Int64
        /// Signed, in the base currency; nil while no rate was known.
        let baseMinor: Int64?
        /// (positive amount in `currency`, category) per split part; empty when not split.
        let splits: [(amount: Int64, categoryId: Int64)]
        /// The note, the payee report's key; nil for none.
        let notes: String?
    }

    private(set) var pending: [Key: Sums] = [:]
    private var pendingPayees: [PayeeKey: Sums] = [:]
    /// Split transactions added (positive) or taken away (negative), for `split_subtree_counts`.
    private var pendingSplitTransactions: [SplitSubtreeCounts.Key: Int64] = [:]

    /// Adds (`sign` 1) or takes away (`sign` -1) a transaction. Throws when a sum would overflow.
    ///
    /// A transaction that is not split is one part with the whole of each amount: it is added
    /// without the arrays a split's shares need, since a load adds a million of them.
    mutating func add(_ entry: Entry, sign: Int64 = 1) throws {
        let month = LedgerMonth.of(entry.date)
        let amountSign: Int64 = entry.kind == .income ? 1 : -1
        func key(_ categoryId: Int64) -> Key {
            Key(month: month, walletId: entry.walletId, categoryId: categoryId, kind: entry.kind.rawValue, transfer: entry.transfer, currency: entry.currency)
        }
        if entry.splits.isEmpty {
            try Self.add(to: &pending, key(entry.categoryId ?? 0)) {
                try $0.add(sign: sign, amount: amountSign * entry.amountMinor, wallet: entry.walletEffect, base: entry.baseMinor, countsMissingBase: true)
            }
        } else {
            pendingSplitTransactions[SplitSubtreeCounts.Key(month: month, parts: entry.splits.map(\.categoryId)), default: 0] += sign
            let amounts = entry.splits.map(\.amount)
            let walletShares = ProportionalShares.allocate(entry.walletEffect, parts: amounts, total: entry.amountMinor)
            let baseShares = entry.baseMinor.map { ProportionalShares.allocate($0, parts: amounts, total: entry.amountMinor) }
            for (index, part) in entry.splits.enumerated() {
                // A missing base amount is counted once per transaction (in its first part's row),
                // as reports say "N transactions".
                try Self.add(to: &pending, key(part.categoryId)) {
                    try $0.add(sign: sign, amount: amountSign * part.amount, wallet: walletShares[index], base: baseShares?[index], countsMissingBase: index == 0)
                }
            }
        }
        if !entry.transfer, let notes = entry.notes {
            try Self.add(to: &pendingPayees, PayeeKey(month: month, kind: entry.kind.rawValue, notes: notes)) {
                try $0.add(sign: sign, amount: 0, wallet: 0, base: entry.baseMinor, countsMissingBase: true, countsAmounts: false)
            }
        }
    }

    /// Adds what `other` has pending: a batch's totals added up before its write (`ImportPlan`).
    mutating func add(_ other: LedgerTotals) throws {
        for (key, sums) in other.pending { try Self.add(to: &pending, key) { try $0.add(sums) } }
        for (key, sums) in other.pendingPayees { try Self.add(to: &pendingPayees, key) { try $0.add(sums) } }
        for (key, change) in other.pendingSplitTransactions { pendingSplitTransactions[key, default: 0] += change }
    }

    /// Changes the sums of `key` with `change`, storing them only when it succeeds: a key whose
    /// change overflowed is not left behind with empty sums for a caller that goes on.
    /// A key already there is hashed once, its sums replaced through their index: a load adds a
    /// million transactions to a few thousand keys, and the second lookup of a subscript
    /// assignment was a third of adding one (D384).
    private static func add<K: Hashable>(to sums: inout [K: Sums], _ key: K, _ change: (inout Sums) throws -> Void) throws {
        if let index = sums.index(forKey: key) {
            var value = sums.values[index]
            try change(&value)
            sums.values[index] = value
        } else {
            var value = Sums()
            try change(&value)
            sums[key] = value
        }
    }

    /// Writes the pending sums into the totals tables (one upsert per row touched) and forgets
    /// them. SQLite turns an integer sum that overflows into a float; the tables' CHECKs refuse
    /// that, and the write fails as too large. `reportTables` false: only `ledger_totals`
    /// (migrations older than the tables that rebuild the totals); `splitCounts` false: not
    /// `split_subtree_counts` (migrations older than that table).
    mutating func flush(_ db: Database, reportTables: Bool = true, splitCounts: Bool = true) throws {
        // Each upsert is looked up once and bound with SQLite's own calls (`BoundStatement`): a
        // batch of a load touches a thousand rows or more, and GRDB's cache hashes the SQL and
        // boxes every argument per row (D368).
        let upsert = try BoundStatement(db, cached: """
            INSERT INTO ledger_totals (month, wallet_id, category_id, kind, transfer, currency, count, amount_minor, wallet_minor, base_minor, missing_base)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (month, wallet_id, category_id, kind, transfer, currency) DO UPDATE SET
                count = count + excluded.count, amount_minor = amount_minor + excluded.amount_minor,
                wallet_minor = wallet_minor + excluded.wallet_minor, base_minor = base_minor + excluded.base_minor,
                missing_base = missing_base + excluded.missing_base
            """)
        var categories: [CategoryKey: Sums] = [:]
        for (key, sums) in pending {
            try refusingOverflow {
                var statement = upsert.rebound()
                statement.bind(key.month, at: 1)
                statement.bind(key.walletId, at: 2)
                statement.bind(key.categoryId, at: 3)
                statement.bind(key.kind, at: 4)
                statement.bind(key.transfer, at: 5)
                statement.bind(key.currency, at: 6)
                sums.bind(to: &statement, from: 7, wallet: true)
                try statement.execute()
            }
            if sums.count < 0 {
                try db.execute(cached: "DELETE FROM ledger_totals WHERE month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND transfer = ? AND currency = ? AND count = 0",
                    arguments: [key.month, key.walletId, key.categoryId, key.kind, key.transfer, key.currency])
            }
            guard !key.transfer else { continue }
            let categoryKey = CategoryKey(month: key.month, categoryId: key.categoryId, kind: key.kind, currency: key.currency)
            var sum = categories[categoryKey] ?? Sums()
            sum.count += sums.count
            sum.amount = try CheckedMinorUnits.add(sum.amount, sums.amount)
            sum.base = try CheckedMinorUnits.add(sum.base, sums.base)
            sum.missingBase += sums.missingBase
            categories[categoryKey] = sum
        }
        if reportTables {
            let categoryUpsert = try BoundStatement(db, cached: """
                INSERT INTO category_totals (month, category_id, kind, currency, count, amount_minor, base_minor, missing_base)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (month, category_id, kind, currency) DO UPDATE SET
                    count = count + excluded.count, amount_minor = amount_minor + excluded.amount_minor,
                    base_minor = base_minor + excluded.base_minor, missing_base = missing_base + excluded.missing_base
                """)
            for (key, sums) in categories {
                try refusingOverflow {
                    var statement = categoryUpsert.rebound()
                    statement.bind(key.month, at: 1)
                    statement.bind(key.categoryId, at: 2)
                    statement.bind(key.kind, at: 3)
                    statement.bind(key.currency, at: 4)
                    sums.bind(to: &statement, from: 5, wallet: false)
                    try statement.execute()
                }
                if sums.count < 0 {
                    try db.execute(cached: "DELETE FROM category_totals WHERE month = ? AND category_id = ? AND kind = ? AND currency = ? AND count = 0",
                                   arguments: [key.month, key.categoryId, key.kind, key.currency])
                }
            }
            let payeeUpsert = try BoundStatement(db, cached: """
                INSERT INTO payee_totals (month, kind, notes, count, base_minor, missing_base)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (month, kind, notes) DO UPDATE SET
                    count = count + excluded.count, base_minor = base_minor + excluded.base_minor, missing_base = missing_base + excluded.missing_base
                """)
            for (key, sums) in pendingPayees {
                try refusingOverflow {
                    var statement = payeeUpsert.rebound()
                    statement.bind(key.month, at: 1)
                    statement.bind(key.kind, at: 2)
                    statement.bind(key.notes, at: 3)
                    statement.bind(sums.count, at: 4)
                    statement.bind(sums.base, at: 5)
                    statement.bind(sums.missingBase, at: 6)
                    try statement.execute()
                }
                if sums.count < 0 {
                    try db.execute(cached: "DELETE FROM payee_totals WHERE month = ? AND kind = ? AND notes = ? AND count = 0", arguments: [key.month, key.kind, key.notes])
                }
            }
        }
        if splitCounts { try SplitSubtreeCounts.apply(db, pendingSplitTransactions) }
        pending = [:]
        pendingPayees = [:]
        pendingSplitTransactions = [:]
    }

    private func refusingOverflow(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
            throw CheckedMinorUnits.tooLarge
        }
    }

    /// Spending (positive) in `categoryId`'s subtree in `month`, in minor units of the base
    /// currency: expenses less refunds, split parts in their own categories with their shares,
    /// transfers left out (`budget.status`, D82). Cached: the alerts service asks on every change.
    static func spentInBase(_ db: Database, categoryId: Int64, month: String) throws -> Int64 {
        let subtree = "WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN subtree s ON c.parent_id = s.id)"
        return try db.cachedValue(Int64.self, sql: """
            \(subtree)
            SELECT coalesce(-sum(base_minor), 0) FROM ledger_totals WHERE month = ? AND transfer = 0 AND category_id IN subtree
            """, arguments: [categoryId, month]) ?? 0
    }

    /// Takes transactions out of (`sign` -1) or puts them into (`sign` 1) the totals: call with -1
    /// before changing or deleting them and with 1 after inserting or changing them.
    static func apply(_ db: Database, ids: [Int64], sign: Int64) throws {
        var totals = LedgerTotals()
        for entry in try TransactionRow.totalsEntries(db, ids: ids) { try totals.add(entry, sign: sign) }
        try totals.flush(db)
    }

    /// Recomputes every total from the transactions (the migration, and tests that check the
    /// maintained totals against a fresh computation).
    static func rebuild(_ db: Database) throws {
        // Migration v5 rebuilds the totals before v10 adds investment trades' cash:
        // `eachTotalsEntry` reads the table as it is at that step.
        let reportTables = try db.tableExists("payee_totals")
        let splitCounts = try db.tableExists("split_subtree_counts")
        try db.execute(sql: "DELETE FROM ledger_totals")
        if reportTables { try db.execute(sql: "DELETE FROM category_totals; DELETE FROM payee_totals") }
        if splitCounts { try db.execute(sql: "DELETE FROM split_subtree_counts") }
        var totals = LedgerTotals()
        try TransactionRow.eachTotalsEntry(db) { try totals.add($0) }
        try totals.flush(db, reportTables: reportTables, splitCounts: splitCounts)
    }
}
