import Foundation
import GRDB
import LedgerlyRuntime

/// `ledgerly-store --restore FILE` (what `ledgerly restore FILE` runs): puts a backup back in
/// place of the database, with the store stopped (it takes the store's instance lock, so it
/// cannot run beside a serving store).
///
/// The file is checked before anything changes (SQLite's integrity check, a Ledgerly database,
/// no schema step this version does not know); the database it replaces is first copied to
/// `<home>/backups/`; the backup is written in with SQLite's backup API; and the restored
/// database gets a new epoch, so every follower (rates, alerts) replays its change log from
/// the start instead of skipping events up to a cursor from another history (D80, D84).
public enum StoreRestore {
    public struct Outcome: Sendable {
        /// The copy of the database that was replaced, if there was one.
        public let replacedCopy: URL?
        public let epoch: String
        public let lastSeq: Int64
        public let transactions: Int
    }

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case notALedger(String)
        case integrity(String, String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read \(path) as a database: \(reason)"
            case .notALedger(let path): "\(path) is not a Ledgerly database (no change log or epoch)"
            case .integrity(let path, let result): "\(path) fails SQLite's integrity check (\(result)); nothing was changed"
            }
        }
    }

    public static func run(from file: URL, home: LedgerlyHome) throws -> Outcome {
        try home.prepare()
        let lock = try InstanceLock(path: LedgerlyService.store.lockPath(in: home))
        defer { withExtendedLifetime(lock) {} }
        let source: DatabaseQueue
        do {
            source = try DatabaseQueue(path: file.path)
        } catch {
            throw Failure.unreadable(file.path, "\(error)")
        }
        let migrator = StoreMigrations.migrator()
        try source.read { db in
            let check = (try? String.fetchOne(db, sql: "PRAGMA integrity_check")) ?? "not a database"
            guard check == "ok" else { throw Failure.integrity(file.path, check) }
            guard try db.tableExists(ChangeLogRow.databaseTableName), try db.tableExists(MetaRow.databaseTableName) else { throw Failure.notALedger(file.path) }
            let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
            guard unknown.isEmpty else { throw StoreDatabase.OpenError.newerVersion(path: file.path, unknown: unknown) }
        }
        var replaced: URL?
        if FileManager.default.fileExists(atPath: home.databaseURL.path) {
            let current = try DatabasePool(path: home.databaseURL.path)
            replaced = try StoreBackup.copy(current, to: StoreBackup.folder(beside: home.databaseURL), named: "replaced")
            try current.close()
        }
        let live = try DatabasePool(path: home.databaseURL.path)
        try source.backup(to: live)
        try source.close()
        let epoch = UUID().uuidString.lowercased()
        let (lastSeq, transactions) = try live.write { db in
            try MetaRow.replaceEpoch(with: epoch, db)
            return (try ChangeLogRow.lastSeq(db), try TransactionRow.count(db) ?? 0)
        }
        try live.close()
        return Outcome(replacedCopy: replaced, epoch: epoch, lastSeq: lastSeq, transactions: transactions)
    }
}
