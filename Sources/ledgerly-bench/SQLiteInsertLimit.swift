import Foundation
import GRDBSQLite
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyStore
import LedgerlyTesting

/// A limit of the machine for the load: the same synthetic history's rows inserted with the
/// sqlite3 C API alone into a bare table that has the `transactions` table's columns (no index,
/// no constraint, no totals, no change log, no tags or splits), one prepared statement, one SQL
/// transaction per batch, in WAL mode with `synchronous = FULL` as the store opens its database by
/// default. What Ledgerly's load adds on top (the protocol, JSON, validation, conversions, the
/// indexes, the totals it keeps on write) is the distance between the two rates.
///
/// With `schema: .store` the same rows go into the store's own database instead, made by its
/// migrations: the `transactions` table with its indexes, constraints, foreign keys and
/// AUTOINCREMENT, each row with the rate snapshot id the store keeps for a wallet outside the base
/// currency. That is the floor of what a load can cost in SQLite alone, before the tags, split
/// parts, totals, change log and everything in Swift (D369).
///
/// Only the inserts and commits are timed: the rows are generated between batches, untimed.
struct SQLiteInsertLimit {
    enum Schema {
        /// A bare table with the columns alone.
        case bare
        /// The store's database and its `transactions` table as the migrations make them.
        case store
    }

    struct Result {
        /// Transactions as the load counts them (a transfer once).
        let transactions: Int
        /// Rows written (a transfer writes two).
        let rows: Int
        let time: Duration
        var transactionsPerSecond: Double { Double(transactions) / max(time.seconds, 1e-9) }
    }

    let folder: URL
    let transactions: Int
    let batch: Int
    var schema = Schema.bare

    private static let columns = [
        "kind", "wallet_id", "amount_minor", "currency", "wallet_amount_minor", "base_amount_minor", "category_id", "notes", "date",
        "attachment_path", "counterparty_wallet_id", "counterparty_tx_id", "created_at", "updated_at", "conversion_id", "base_conversion_id",
        "import_key", "import_id", "trade_id", "trade_transfer", "liability_id",
    ]

    /// SQLite's "copy this text now" destructor, which Swift does not import as a constant.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func run() throws -> Result {
        let path = folder.appendingPathComponent(schema == .bare ? "sqlite-limit.sqlite" : "sqlite-limit-store.sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // The store's schema, made by its own migrations (the pool is closed again at once).
        if schema == .store { _ = try StoreDatabase(url: URL(fileURLWithPath: path)) }
        var connection: OpaquePointer?
        guard sqlite3_open(path, &connection) == SQLITE_OK, let db = connection else { throw BenchmarkError.missingInput("cannot open \(path)") }
        defer { sqlite3_close(db) }
        try execute(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        switch schema {
        case .bare:
            try execute(db, """
                CREATE TABLE transactions (id INTEGER PRIMARY KEY, kind TEXT, wallet_id INTEGER, amount_minor INTEGER, currency TEXT,
                    wallet_amount_minor INTEGER, base_amount_minor INTEGER, category_id INTEGER, notes TEXT, date TEXT, attachment_path TEXT,
                    counterparty_wallet_id INTEGER, counterparty_tx_id INTEGER, created_at TEXT, updated_at TEXT, conversion_id INTEGER,
                    base_conversion_id INTEGER, import_key TEXT, import_id TEXT, trade_id INTEGER, trade_transfer INTEGER, liability_id INTEGER)
                """)
        case .store:
            // The wallets and categories the rows name, as the store checks foreign keys.
            try execute(db, "PRAGMA foreign_keys = ON")
            for (index, wallet) in SyntheticHistory.wallets.enumerated() {
                try execute(db, """
                    INSERT INTO wallets (id, name, currency, type, starting_balance_minor, balance_minor, created_at, updated_at)
                    VALUES (\(index + 1), 'wallet \(index + 1)', '\(wallet.currency)', 'bank', 0, 0, '\(Self.timestamp)', '\(Self.timestamp)')
                    """)
            }
            // The one base snapshot the rows outside the base currency refer to (D372).
            try execute(db, "INSERT INTO conversion_snapshots (id, snapshot) VALUES (\(Self.baseSnapshotId), '\(Self.baseSnapshot)')")
            for id in 1...Self.categoryCount {
                try execute(db, "INSERT INTO categories (id, name, kind, created_at, updated_at) VALUES (\(id), 'category \(id)', 'expense', '\(Self.timestamp)', '\(Self.timestamp)')")
            }
        }
        let sql = "INSERT INTO transactions (\(Self.columns.joined(separator: ", "))) VALUES (\(Self.columns.map { _ in "?" }.joined(separator: ", ")))"
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else { throw failure(db, "prepare") }
        defer { sqlite3_finalize(statement) }

        // The ids a fresh store gives the synthetic wallets and categories.
        let walletIds = SyntheticHistory.wallets.indices.map { Int64($0 + 1) }
        let expenseCount = SyntheticHistory.expenseCategories.reduce(0) { $0 + $1.1.count }
        let incomeCount = SyntheticHistory.incomeCategories.reduce(0) { $0 + $1.1.count }
        let expenseIds = (0..<expenseCount).map { Int64($0 + 1) }
        let incomeIds = (0..<incomeCount).map { Int64(expenseCount + $0 + 1) }
        let withSnapshots = schema == .store
        var history = SyntheticHistory(count: transactions)
        var time = Duration.zero
        var (items, rows) = (0, 0)
        while true {
            let batch = history.nextBatch(size: batch, walletIds: walletIds, expenseIds: expenseIds, incomeIds: incomeIds)
            guard !batch.isEmpty else { break }
            let rowsOfBatch = batch.flatMap { Self.rows($0, withSnapshots: withSnapshots) }
            let started = ContinuousClock.now
            try execute(db, "BEGIN")
            for row in rowsOfBatch { try insert(row, statement, db) }
            try execute(db, "COMMIT")
            time += ContinuousClock.now - started
            items += batch.count
            rows += rowsOfBatch.count
        }
        return Result(transactions: items, rows: rows, time: time)
    }

    /// A column's value; the rows are built before the timed part, so binding is all that is timed.
    private enum Value {
        case integer(Int64)
        case text(String)
        case null

        init(_ number: Int64?) { self = number.map { .integer($0) } ?? .null }
        init(_ text: String?) { self = text.map { .text($0) } ?? .null }
    }

    /// One row's values in `columns` order.
    private typealias Row = [Value]

    private static let timestamp = "2026-11-24T10:00:00.000Z"

    /// Every category id the synthetic history uses (expense children, then income children).
    private static let categoryCount = (SyntheticHistory.expenseCategories + SyntheticHistory.incomeCategories).reduce(0) { $0 + $1.1.count }

    /// A base-currency snapshot as the store keeps one (a USD wallet's, in a EUR ledger), stored
    /// once; a row of a wallet outside the base currency carries its id (D372).
    private static let baseSnapshotId: Int64 = 1
    private static let baseSnapshot = #"{"asOf":"2021-11-01T15:00:00.000Z","base":"USD","legs":[{"base":"EUR","inverted":true,"quote":"USD","rate":"1.05"}],"override":false,"profileId":1,"profileName":"official","quote":"EUR","rate":"0.952380952380952381","source":"ecb","stale":false}"#

    /// The rows an import item becomes: one for a transaction, two for a transfer (out, then in).
    /// `withSnapshots`: a row of a wallet outside EUR (the history's base) keeps a base snapshot.
    private static func rows(_ item: TransactionImportItem, withSnapshots: Bool) -> [Row] {
        func minor(_ amount: String) -> Int64 { Int64(amount.replacingOccurrences(of: ".", with: "")) ?? 0 }
        // The amounts in all three currency columns alike: converting is the store's work, not SQLite's.
        func row(_ kind: String, _ wallet: Int64, _ amount: Int64, _ currency: String, _ category: Int64?, _ notes: String?, _ date: String, _ counterparty: Int64?) -> Row {
            let snapshot: Value = withSnapshots && Self.currency(wallet) != "EUR" ? .integer(baseSnapshotId) : .null
            return [.text(kind), .integer(wallet), .integer(amount), .text(currency), .integer(amount), .integer(amount), Value(category), Value(notes), .text(date),
                    .null, Value(counterparty), .null, .text(timestamp), .text(timestamp), .null, snapshot, .null, .text("bench"), .null, .integer(0), .null]
        }
        if let tx = item.transaction {
            return [row(tx.kind.rawValue, tx.walletId, minor(tx.amount), tx.currency ?? Self.currency(tx.walletId), tx.categoryId, tx.notes, tx.date, nil)]
        }
        guard let transfer = item.transfer else { return [] }
        let out = minor(transfer.amount), into = transfer.toAmount.map(minor) ?? out
        return [
            row("expense", transfer.fromWalletId, out, Self.currency(transfer.fromWalletId), nil, transfer.notes, transfer.date, transfer.toWalletId),
            row("income", transfer.toWalletId, into, Self.currency(transfer.toWalletId), nil, transfer.notes, transfer.date, transfer.fromWalletId),
        ]
    }

    private static func currency(_ walletId: Int64) -> String { SyntheticHistory.wallets[Int(walletId) - 1].currency }

    private func insert(_ row: Row, _ statement: OpaquePointer, _ db: OpaquePointer) throws {
        for (index, value) in row.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(db, "insert") }
        sqlite3_reset(statement)
    }

    private func execute(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(db, sql) }
    }

    private func failure(_ db: OpaquePointer, _ what: String) -> BenchmarkError {
        .commandFailed("sqlite \(what): \(String(cString: sqlite3_errmsg(db)))")
    }
}
