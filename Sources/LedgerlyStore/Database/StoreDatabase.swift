import Foundation
import GRDB
import Logging

/// Opens the store's database: WAL mode, foreign keys, migrations applied, epoch read.
/// Only `ledgerly-store` ever calls this (docs/architecture.md, reliability rule 1).
///
/// Before it migrates a database that already holds a ledger it takes a copy of it, and it
/// refuses a database that a newer Ledgerly has migrated (D84): an older store would otherwise
/// write into a schema it does not know.
public struct StoreDatabase: Sendable {
    public let pool: DatabasePool
    /// Identifies this database file; a subscriber that sees another epoch replays from zero.
    public let epoch: String
    /// The copy taken before this open migrated the database, if it did.
    public let backupBeforeMigration: URL?
    /// Writes committed through this value that an import plan could depend on (D370).
    let writeGeneration = WriteGeneration()

    public enum OpenError: Error, CustomStringConvertible {
        case newerVersion(path: String, unknown: [String])
        case amountsInARescaledCurrency(path: String, currency: String, columns: [String])

        public var description: String {
            switch self {
            case .newerVersion(let path, let unknown):
                "\(path) was written by a newer Ledgerly (schema steps this version does not know: \(unknown.joined(separator: ", "))); run that version, or restore a backup made by this one"
            case .amountsInARescaledCurrency(let path, let currency, let columns):
                "\(path) holds amounts in \(currency) (\(columns.joined(separator: ", "))), stored with the minor unit an earlier Ledgerly gave it; this version gives \(currency) its ISO 4217 minor unit, so those amounts would read 100 times smaller. Nothing was changed: keep using the earlier version for this ledger until one that converts them is out (docs/decisions/store.md, D416)"
            }
        }
    }

    /// Currencies whose minor unit a later version corrected, with the schema step that marks a
    /// ledger as made (or checked) after the correction. A ledger older than the step that holds
    /// amounts in such a currency is refused before any migration runs, so nothing is rescaled or
    /// misread in silence and the earlier version can still open it (D416).
    static let rescaledCurrencies: [(currency: String, step: String)] = [("ROL", StoreMigrations.rolMinorUnitStep)]

    /// The currency columns (`…currency`) of every table that hold `currency`.
    private static func columns(holding currency: String, _ db: Database) throws -> [String] {
        var found: [String] = []
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
            for column in try db.columns(in: table).map(\.name) where column.hasSuffix("currency") {
                let quotedTable = table.replacingOccurrences(of: "\"", with: "\"\"")
                let quotedColumn = column.replacingOccurrences(of: "\"", with: "\"\"")
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \"\(quotedTable)\" WHERE \"\(quotedColumn)\" = ?)", arguments: [currency]) == true {
                    found.append("\(table).\(column)")
                }
            }
        }
        return found
    }

    public init(url: URL, durability: Durability = .full) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
        }
        pool = try DatabasePool(path: url.path, configuration: configuration)
        // Again, on the writer: GRDB sets `synchronous = NORMAL` when it puts the pool in WAL
        // mode, after `prepareDatabase` has run, so `full` was never in force (D232).
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
        }
        let migrator = StoreMigrations.migrator()
        let (applied, pending) = try pool.read { db in
            (try migrator.appliedIdentifiers(db), try !migrator.hasCompletedMigrations(db))
        }
        let known = Set(migrator.migrations)
        let unknown = applied.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else { throw OpenError.newerVersion(path: url.path, unknown: unknown) }
        if !applied.isEmpty {
            for (currency, step) in Self.rescaledCurrencies where !applied.contains(step) {
                let columns = try pool.read { db in try Self.columns(holding: currency, db) }
                guard columns.isEmpty else { throw OpenError.amountsInARescaledCurrency(path: url.path, currency: currency, columns: columns) }
            }
        }
        if pending && !applied.isEmpty {
            backupBeforeMigration = try StoreBackup.copy(pool, to: StoreBackup.folder(beside: url), named: "before-\(migrator.migrations.last ?? "migration")")
        } else {
            backupBeforeMigration = nil
        }
        try migrator.migrate(pool)
        _ = try pool.write { db in try AverageCostRepair.runIfDue(db) }
        epoch = try pool.read { db in
            try MetaRow.epoch(db) ?? "unknown"
        }
    }

    /// Copies the write-ahead log into the database and empties it, on a graceful stop.
    ///
    /// Why: the process exits without closing its connections, so SQLite never folds the log in
    /// itself; the next start then read the whole log to rebuild its index (2,400 frames, 10 MB,
    /// after a migration at a million transactions), which was most of a cold start (D227). A
    /// failure only costs the next start that read, so it is logged, not raised.
    ///
    /// The log is then left one frame long rather than empty (D231): on a pool whose log is empty
    /// or missing, GRDB creates and drops a table to make one, which on every start cost a write
    /// with two fsyncs and a change of schema before the first reply. The frame is page 1
    /// rewritten (`user_version` set to itself: only SQLite's change counter moves), read back in
    /// microseconds at the start.
    public func foldWriteAheadLog(logger: Logger) {
        do {
            try pool.writeWithoutTransaction { db in
                _ = try db.checkpoint(.truncate)
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        } catch {
            logger.warning("could not fold the write-ahead log into the database (the next start reads it): \(error)")
        }
    }
}
