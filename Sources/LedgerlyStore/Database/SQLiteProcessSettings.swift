import CSQLiteConfiguration
import GRDBSQLite

/// SQLite's process-wide settings, made once by a process that opens the store's database,
/// before its first connection (SQLite refuses them afterwards, and they are not thread-safe, so
/// the executables make them first thing, on one thread).
public enum SQLiteProcessSettings {
    /// Turns off SQLite's memory statistics (D371).
    ///
    /// Why: with them on (the default), every allocation and free SQLite makes takes one
    /// process-wide mutex to count it. A load makes several per row (the values it binds, the
    /// records it builds), and the lock and unlock were 8 % of the store's applying thread; a
    /// million-transaction load ran 5–18 % faster without them. Ledgerly never reads the
    /// statistics (`sqlite3_memory_used` and the like), and no limit depends on them: the store
    /// sets no soft heap limit.
    ///
    /// Returns false when SQLite had already started, and the setting is left as it was.
    @discardableResult
    public static func apply() -> Bool {
        ledgerly_sqlite3_config_memstatus(0) == SQLITE_OK
    }
}
