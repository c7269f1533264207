import Foundation
import GRDB

/// Opens the store's database: WAL mode, foreign keys, migrations applied, epoch read.
/// Only `ledgerly-store` ever calls this (architecture rule 1).
public struct StoreDatabase: Sendable {
    public let pool: DatabasePool
    /// Identifies this database file; a subscriber that sees another epoch replays from zero.
    public let epoch: String

    public init(url: URL, durability: Durability = .full) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
        }
        pool = try DatabasePool(path: url.path, configuration: configuration)
        try StoreMigrations.migrator().migrate(pool)
        epoch = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") ?? "unknown"
        }
    }
}
