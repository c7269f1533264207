import GRDB
import GRDBSQLite

/// A cached statement whose parameters are bound with SQLite's own calls, for the statements a
/// load runs once per row: the `transactions` insert, tags, split parts (D356).
///
/// Why: `execute(cached:arguments:)` first boxes every value into `StatementArguments` of
/// `DatabaseValue`s and then binds them, which was 15 % of the store's applying thread during a
/// load of a million transactions. Values are bound exactly as GRDB binds them (integers as
/// 64-bit integers, text copied up to its NUL as `String` is, nil as NULL), and the statement
/// still runs through GRDB's `execute()`, so its transaction tracking and the cache's handling
/// of a failed statement are unchanged.
///
/// Use: make one, bind each parameter (1-based; one not bound is NULL), `execute()`.
struct BoundStatement {
    private let statement: Statement

    /// The cached statement for `sql`, reset, with every parameter NULL.
    init(_ db: Database, cached sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        // Resets and clears the bindings, and marks the (empty) arguments as bound, so that
        // `execute()` runs with the values bound below instead of checking for arguments.
        statement.setUncheckedArguments(StatementArguments())
    }

    /// The same statement again, reset, with every parameter NULL: for a caller that keeps it
    /// for a whole batch instead of looking it up in GRDB's cache for each row, which hashes
    /// the SQL's text every time.
    func cleared() -> BoundStatement {
        statement.setUncheckedArguments(StatementArguments())
        return self
    }

    func bind(_ value: Int64?, at index: Int32) {
        guard let value else { return }
        check(sqlite3_bind_int64(statement.sqliteStatement, index, value), index)
    }

    func bind(_ value: Int, at index: Int32) { bind(Int64(value), at: index) }

    func bind(_ value: Bool, at index: Int32) { bind(value ? 1 : 0, at: index) }

    func bind(_ value: String?, at index: Int32) {
        guard let value else { return }
        check(sqlite3_bind_text(statement.sqliteStatement, index, value, -1, Self.transient), index)
    }

    func execute() throws { try statement.execute() }

    /// A binding fails only for an index the SQL does not have: a mistake in this file's
    /// callers, never in the data (GRDB treats it the same way).
    private func check(_ code: Int32, _ index: Int32) {
        precondition(code == SQLITE_OK, "binding parameter \(index) of \(statement.sql) failed with SQLite code \(code)")
    }

    /// SQLite's "copy this text now" destructor, which Swift does not import as a constant.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
