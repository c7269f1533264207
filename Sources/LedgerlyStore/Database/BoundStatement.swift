import GRDB
import GRDBSQLite

/// A cached statement whose parameters are bound with SQLite's own calls, for the statements a
/// load runs once per row: the `transactions` insert, tags, split parts, the totals' upserts
/// (D356, D381).
///
/// Why: `execute(cached:arguments:)` first boxes every value into `StatementArguments` of
/// `DatabaseValue`s and then binds them, which was 15 % of the store's applying thread during a
/// load of a million transactions. Values are bound exactly as GRDB binds them (integers as
/// 64-bit integers, text copied up to its first NUL as a `String` passed to C is read, nil as
/// NULL), and the statement still runs through GRDB's `execute()`, so its transaction tracking
/// and the cache's handling of a failed statement are unchanged.
///
/// Use: make one (or take the last one's `rebound()`), bind every parameter (1-based; nil binds
/// NULL), `execute()`. Executing with a parameter left unbound is a programming error and stops
/// the store: a row kept for a batch keeps the previous row's values until each is bound again,
/// so a forgotten one would otherwise be written silently from the row before (D381).
struct BoundStatement {
    private let statement: Statement
    /// Bit `i - 1` set: parameter `i` bound since the last reset.
    private var bound: UInt64 = 0
    /// Every parameter's bit.
    private let all: UInt64

    /// The cached statement for `sql`, reset.
    init(_ db: Database, cached sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        let count = sqlite3_bind_parameter_count(statement.sqliteStatement)
        precondition(count <= 64, "BoundStatement binds at most 64 parameters; \(statement.sql) has \(count)")
        all = count == 64 ? .max : (1 << UInt64(count)) - 1
        // Resets the statement and marks the (empty) arguments as bound, so that `execute()`
        // runs with the values bound below instead of checking for arguments.
        statement.setUncheckedArguments(StatementArguments())
    }

    private init(statement: Statement, all: UInt64) {
        self.statement = statement
        self.all = all
    }

    /// The same statement again, reset, for the next row: for a caller that keeps it for a
    /// whole batch instead of looking it up in GRDB's cache for each row, which hashes the SQL's
    /// text every time.
    ///
    /// Only SQLite's reset runs; the bindings stay, since each is bound again before the next
    /// `execute()`. Clearing them freed each text's copy only for the next row to allocate it
    /// again, and with GRDB's bookkeeping was 7 % of the load's applying thread (D381). The
    /// reset's result code repeats the last step's error, if any, which the caller was given
    /// already; the statement is reset either way.
    func rebound() -> BoundStatement {
        sqlite3_reset(statement.sqliteStatement)
        return BoundStatement(statement: statement, all: all)
    }

    mutating func bind(_ value: Int64?, at index: Int32) {
        guard let value else { return bindNull(at: index) }
        check(sqlite3_bind_int64(statement.sqliteStatement, index, value), index)
    }

    mutating func bind(_ value: Int, at index: Int32) { bind(Int64(value), at: index) }

    mutating func bind(_ value: Bool, at index: Int32) { bind(value ? 1 : 0, at: index) }

    /// Copies the text's UTF-8 from the string's own storage: passing the `String` to the C call
    /// made a NUL-terminated copy of it first (an allocation per text, 3 % of the applying
    /// thread). The length stops at the first NUL, where that copy stopped SQLite; no request
    /// text has one (the protocol refuses U+0000), so this only keeps the rule GRDB has.
    mutating func bind(_ value: String?, at index: Int32) {
        guard var text = value else { return bindNull(at: index) }
        let statement = statement.sqliteStatement
        let code = text.withUTF8 { bytes -> Int32 in
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            guard let start = bytes.baseAddress, length > 0 else {
                return sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
            return start.withMemoryRebound(to: CChar.self, capacity: length) {
                sqlite3_bind_text(statement, index, $0, Int32(length), Self.transient)
            }
        }
        check(code, index)
    }

    func execute() throws {
        precondition(bound == all, "\(statement.sql) executed with parameters \(Self.indexes(all & ~bound)) not bound")
        try statement.execute()
    }

    private mutating func bindNull(at index: Int32) {
        check(sqlite3_bind_null(statement.sqliteStatement, index), index)
    }

    /// A binding fails only for an index the SQL does not have: a mistake in this file's
    /// callers, never in the data (GRDB treats it the same way).
    private mutating func check(_ code: Int32, _ index: Int32) {
        precondition(code == SQLITE_OK, "binding parameter \(index) of \(statement.sql) failed with SQLite code \(code)")
        bound |= 1 << UInt64(index - 1)
    }

    private static func indexes(_ mask: UInt64) -> [Int] {
        (0..<64).filter { mask & (1 << UInt64($0)) != 0 }.map { $0 + 1 }
    }

    /// SQLite's "copy this text now" destructor, which Swift does not import as a constant.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
