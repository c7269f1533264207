import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The statements over `transactions` (and its split parts) that other features run: the kept
/// totals' reads, a budget's uncounted transactions, the payee report's partial days, the rates'
/// waiting rows and their backfill. They are `TransactionRow`'s, with the rest of its statements
/// (`TransactionStore.swift`, `TransactionQueries.swift`), apart only for length (D454, D550).
/// Each statement's text, caching and order are the ones it had in the feature that runs it
/// (D455), so no plan changes.
extension TransactionRow {
    // MARK: The kept totals (`LedgerTotals`)

    /// The transactions `ids` as the totals see them, with their split parts (by position).
    static func totalsEntries(_ db: Database, ids: [Int64]) throws -> [LedgerTotals.Entry] {
        guard !ids.isEmpty else { return [] }
        let rows = try SQLRequest<Row>("""
            SELECT id, date, wallet_id, category_id, kind, (counterparty_wallet_id IS NOT NULL OR trade_transfer = 1) AS transfer, currency, amount_minor, wallet_amount_minor, base_amount_minor, notes
            FROM transactions WHERE id IN \(ids)
            """).fetchAll(db)
        var splits: [Int64: [(amount: Int64, categoryId: Int64)]] = [:]
        for row in try SQLRequest<Row>("SELECT tx_id, amount_minor, category_id FROM splits WHERE tx_id IN \(ids) ORDER BY tx_id, position").fetchAll(db) {
            splits[row["tx_id"], default: []].append((row["amount_minor"], row["category_id"]))
        }
        return rows.map { totalsEntry(row: $0, splits: splits[$0["id"]] ?? []) }
    }

    /// Every transaction as the totals see it, one at a time (`LedgerTotals.rebuild`). Before
    /// migration v10 the table has no investment trades' cash (`trade_transfer`), so only
    /// transfers' legs are transfers then.
    static func eachTotalsEntry(_ db: Database, _ body: (LedgerTotals.Entry) throws -> Void) throws {
        let hasTradeCash = try db.columns(in: "transactions").contains { $0.name == "trade_transfer" }
        let transferColumn = hasTradeCash ? "(counterparty_wallet_id IS NOT NULL OR trade_transfer = 1)" : "counterparty_wallet_id IS NOT NULL"
        var splits: [Int64: [(amount: Int64, categoryId: Int64)]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT tx_id, amount_minor, category_id FROM splits ORDER BY tx_id, position") {
            splits[row["tx_id"], default: []].append((row["amount_minor"], row["category_id"]))
        }
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT id, date, wallet_id, category_id, kind, \(transferColumn) AS transfer, currency, amount_minor, wallet_amount_minor, base_amount_minor, notes
            FROM transactions
            """)
        while let row = try cursor.next() {
            try body(totalsEntry(row: row, splits: splits[row["id"]] ?? []))
        }
    }

    private static func totalsEntry(row: Row, splits: [(amount: Int64, categoryId: Int64)]) -> LedgerTotals.Entry {
        LedgerTotals.Entry(date: row["date"], walletId: row["wallet_id"], categoryId: row["category_id"],
                           kind: TransactionKind(rawValue: row["kind"]) ?? .expense, transfer: row["transfer"], currency: row["currency"],
                           amountMinor: row["amount_minor"], walletEffect: row["wallet_amount_minor"], baseMinor: row["base_amount_minor"], splits: splits,
                           notes: row["notes"])
    }

    // MARK: Reports and budgets

    /// `report.payees`' rows of the partial days (arguments: the kind, then the leading and the
    /// trailing days, from and to): one per transaction with a note, transfers and trades' cash
    /// left out, as `payee_totals` would hold them (note, count, base amount, missing base). The
    /// report joins it to its whole months with `UNION ALL` in one statement (D223).
    /// Its lines after the first are indented as the report's statement places it, so that
    /// statement's text is the one it always was.
    static let payeePartialDaysSQL = """
        SELECT notes, 1, coalesce(base_amount_minor, 0), base_amount_minor IS NULL
            FROM transactions
            WHERE kind = ? AND counterparty_wallet_id IS NULL AND trade_transfer = 0 AND notes IS NOT NULL
                AND (date BETWEEN ? AND ? OR date BETWEEN ? AND ?)
        """

    /// How many transactions in `categoryId`'s subtree (their own category or a split part's) in
    /// `month` still wait for their base amount; transfers and trades' cash never count. Read from
    /// the index of waiting rows (`budget.status`).
    static func waitingInSubtree(_ db: Database, categoryId: Int64, month: String) throws -> Int {
        let subtree = "WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN subtree s ON c.parent_id = s.id)"
        return try db.cachedValue(Int.self, sql: """
            \(subtree)
            SELECT count(*) FROM transactions t INDEXED BY transactions_waiting_by_date
            WHERE t.base_amount_minor IS NULL AND t.date >= ? AND t.date < ? AND t.counterparty_tx_id IS NULL AND t.trade_transfer = 0
              AND (t.category_id IN subtree OR EXISTS (SELECT 1 FROM splits s WHERE s.tx_id = t.id AND s.category_id IN subtree))
            """, arguments: [categoryId, "\(month)-01", "\(LedgerMonth.next(month))-01"]) ?? 0
    }

    // MARK: Waiting for a base amount (`rates.waiting`, `BaseAmountBackfill`)

    /// The waiting transactions per wallet currency: how many, the earliest and latest day, by
    /// currency. From the partial index of waiting rows (no scan of the ledger).
    static func waitingByCurrency(_ db: Database) throws -> [(currency: String, count: Int, earliest: String, latest: String)] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT w.currency AS currency, count(*) AS count, min(t.date) AS earliest, max(t.date) AS latest
            FROM transactions t INDEXED BY transactions_waiting_by_date JOIN wallets w ON w.id = t.wallet_id
            WHERE t.base_amount_minor IS NULL GROUP BY w.currency ORDER BY w.currency
            """)).map { row -> (currency: String, count: Int, earliest: String, latest: String) in (row["currency"], row["count"], row["earliest"], row["latest"]) }
    }

    /// A transaction waiting for its base amount (or its transfer partner), as the backfill reads it.
    struct Waiting {
        let id: Int64
        /// Signed, in the wallet's currency.
        let walletAmountMinor: Int64
        let date: String
        let counterpartyId: Int64?
        /// Read for a partner only (`waitingPartner`): nil on a page's rows, which all wait.
        let baseAmountMinor: Int64?
        let walletCurrency: String

        fileprivate init(row: Row) {
            id = row["id"]
            walletAmountMinor = row["wallet_amount_minor"]
            date = row["date"]
            counterpartyId = row["counterparty_tx_id"]
            baseAmountMinor = row["base_amount_minor"]
            walletCurrency = row["wallet_currency"]
        }
    }

    /// The (wallet currency, day) groups of the waiting transactions, from the index alone (no row is read).
    static func waitingGroups(_ db: Database) throws -> [(currency: String, day: String)] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT w.currency AS currency, t.date AS date, min(t.id) AS first_id
            FROM transactions t INDEXED BY transactions_waiting_by_date JOIN wallets w ON w.id = t.wallet_id
            WHERE t.base_amount_minor IS NULL GROUP BY w.currency, t.date
            """)).map { row -> (currency: String, day: String) in (row["currency"], row["date"]) }
    }

    /// A keyset page of one group's waiting transactions, by id after `after`.
    static func waitingPage(_ db: Database, day: String, currency: String, after: Int64, limit: Int) throws -> [Waiting] {
        try db.cachedRows(
            sql: """
                SELECT t.id, t.wallet_amount_minor, t.date, t.counterparty_tx_id, w.currency AS wallet_currency
                FROM transactions t INDEXED BY transactions_waiting_by_date JOIN wallets w ON w.id = t.wallet_id
                WHERE t.base_amount_minor IS NULL AND t.date = ? AND w.currency = ? AND t.id > ? ORDER BY t.id LIMIT ?
                """,
            arguments: [day, currency, after, limit]).map(Waiting.init(row:))
    }

    /// A waiting transfer leg's partner, with its base amount (it may have one already).
    static func waitingPartner(_ db: Database, id: Int64) throws -> Waiting? {
        try db.cachedRow(
            sql: "SELECT t.id, t.wallet_amount_minor, t.date, t.counterparty_tx_id, t.base_amount_minor, w.currency AS wallet_currency FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.id = ?",
            arguments: [id]).map(Waiting.init(row:))
    }
}
