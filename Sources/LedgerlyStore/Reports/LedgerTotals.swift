import GRDB
import LedgerlyCore

/// Sums per month, wallet, category, kind, transfer flag and currency, kept in the same SQL
/// transaction as every change to a transaction.
///
/// Why: a report over the whole history would otherwise scan every transaction (half a second at
/// a million, docs/measured-limits.md); the totals table has a few thousand rows, so every report
/// reads it in milliseconds. Split parts are kept in their own categories with their shares of
/// the wallet and base amounts (`ProportionalShares`, the rule budgets use). All sums are signed
/// effects: income positive, expense negative.
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
    }

    private(set) var pending: [Key: Sums] = [:]

    /// Adds (`sign` 1) or takes away (`sign` -1) a transaction. Throws when a sum would overflow.
    mutating func add(_ entry: Entry, sign: Int64 = 1) throws {
        let month = String(entry.date.prefix(7))
        let amountSign: Int64 = entry.kind == .income ? 1 : -1
        let parts = entry.splits.isEmpty ? [(amount: entry.amountMinor, categoryId: entry.categoryId ?? 0)] : entry.splits
        let amounts = parts.map(\.amount)
        let walletShares = ProportionalShares.allocate(entry.walletEffect, parts: amounts, total: entry.amountMinor)
        let baseShares = entry.baseMinor.map { ProportionalShares.allocate($0, parts: amounts, total: entry.amountMinor) }
        for (index, part) in parts.enumerated() {
            let key = Key(month: month, walletId: entry.walletId, categoryId: part.categoryId, kind: entry.kind.rawValue, transfer: entry.transfer, currency: entry.currency)
            var sums = pending[key] ?? Sums()
            sums.count += sign
            sums.amount = try CheckedMinorUnits.add(sums.amount, sign * amountSign * part.amount)
            sums.wallet = try CheckedMinorUnits.add(sums.wallet, sign * walletShares[index])
            if let baseShares {
                sums.base = try CheckedMinorUnits.add(sums.base, sign * baseShares[index])
            } else if index == 0 {
                // Counted once per transaction (in its first part's row), as reports say "N transactions".
                sums.missingBase += sign
            }
            pending[key] = sums
        }
    }

    /// Writes the pending sums into `ledger_totals` (one upsert per key touched) and forgets them.
    /// SQLite turns an integer sum that overflows into a float; the table's CHECKs refuse that,
    /// and the write fails as too large.
    mutating func flush(_ db: Database) throws {
        for (key, sums) in pending {
            do {
                try upsert(db, key, sums)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
                throw CheckedMinorUnits.tooLarge
            }
            if sums.count < 0 {
                try db.execute(cached: "DELETE FROM ledger_totals WHERE month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND transfer = ? AND currency = ? AND count = 0",
                    arguments: [key.month, key.walletId, key.categoryId, key.kind, key.transfer, key.currency])
            }
        }
        pending = [:]
    }

    private func upsert(_ db: Database, _ key: Key, _ sums: Sums) throws {
            try db.execute(cached: """
                INSERT INTO ledger_totals (month, wallet_id, category_id, kind, transfer, currency, count, amount_minor, wallet_minor, base_minor, missing_base)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (month, wallet_id, category_id, kind, transfer, currency) DO UPDATE SET
                    count = count + excluded.count, amount_minor = amount_minor + excluded.amount_minor,
                    wallet_minor = wallet_minor + excluded.wallet_minor, base_minor = base_minor + excluded.base_minor,
                    missing_base = missing_base + excluded.missing_base
                """,
                arguments: [key.month, key.walletId, key.categoryId, key.kind, key.transfer, key.currency, sums.count, sums.amount, sums.wallet, sums.base, sums.missingBase])
    }

    /// Reads transactions as stored (with their split parts).
    static func entries(_ db: Database, ids: [Int64]) throws -> [Entry] {
        guard !ids.isEmpty else { return [] }
        let rows = try SQLRequest<Row>("""
            SELECT id, date, wallet_id, category_id, kind, (counterparty_wallet_id IS NOT NULL OR trade_transfer = 1) AS transfer, currency, amount_minor, wallet_amount_minor, base_amount_minor
            FROM transactions WHERE id IN \(ids)
            """).fetchAll(db)
        var splits: [Int64: [(amount: Int64, categoryId: Int64)]] = [:]
        for row in try SQLRequest<Row>("SELECT tx_id, amount_minor, category_id FROM splits WHERE tx_id IN \(ids) ORDER BY tx_id, position").fetchAll(db) {
            splits[row["tx_id"], default: []].append((row["amount_minor"], row["category_id"]))
        }
        return rows.map { entry(row: $0, splits: splits[$0["id"]] ?? []) }
    }

    static func entry(row: Row, splits: [(amount: Int64, categoryId: Int64)]) -> Entry {
        Entry(date: row["date"], walletId: row["wallet_id"], categoryId: row["category_id"],
              kind: TransactionKind(rawValue: row["kind"]) ?? .expense, transfer: row["transfer"], currency: row["currency"],
              amountMinor: row["amount_minor"], walletEffect: row["wallet_amount_minor"], baseMinor: row["base_amount_minor"], splits: splits)
    }

    /// Takes transactions out of (`sign` -1) or puts them into (`sign` 1) the totals: call with -1
    /// before changing or deleting them and with 1 after inserting or changing them.
    static func apply(_ db: Database, ids: [Int64], sign: Int64) throws {
        var totals = LedgerTotals()
        for entry in try entries(db, ids: ids) { try totals.add(entry, sign: sign) }
        try totals.flush(db)
    }

    /// Recomputes every total from the transactions (the migration, and tests that check the
    /// maintained totals against a fresh computation).
    static func rebuild(_ db: Database) throws {
        // Migration v5 rebuilds the totals before v10 adds investment trades' cash (none exists then).
        let hasTradeCash = try db.columns(in: "transactions").contains { $0.name == "trade_transfer" }
        let transferColumn = hasTradeCash ? "(counterparty_wallet_id IS NOT NULL OR trade_transfer = 1)" : "counterparty_wallet_id IS NOT NULL"
        try db.execute(sql: "DELETE FROM ledger_totals")
        var splits: [Int64: [(amount: Int64, categoryId: Int64)]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT tx_id, amount_minor, category_id FROM splits ORDER BY tx_id, position") {
            splits[row["tx_id"], default: []].append((row["amount_minor"], row["category_id"]))
        }
        var totals = LedgerTotals()
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT id, date, wallet_id, category_id, kind, \(transferColumn) AS transfer, currency, amount_minor, wallet_amount_minor, base_amount_minor
            FROM transactions
            """)
        while let row = try cursor.next() {
            try totals.add(entry(row: row, splits: splits[row["id"]] ?? []))
        }
        try totals.flush(db)
    }
}
