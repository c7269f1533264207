import GRDB

/// A row of `meta`, the store's own key-value facts about the database (its epoch, a repair
/// that is due): the one type that reads and writes the table (D454, D553). The table itself is
/// made, and the first epoch written, by the schema's first step (`StoreMigrations`), which
/// keeps its SQL as the schema's history.
struct MetaRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "meta"

    enum Columns {
        static let key = Column("key")
        static let value = Column("value")
    }

    var key: String
    var value: String

    /// The key of the database's epoch: a new one tells every follower to replay its change log
    /// from the start (D80).
    static let epochKey = "epoch"

    /// The value under `key`, if any.
    static func value(_ key: String, _ db: Database) throws -> String? {
        try MetaRow.select(Columns.value, as: String.self).filter(Columns.key == key).fetchOne(db)
    }

    /// Sets `key` to `value`, adding the row or replacing the one there (`INSERT OR REPLACE`).
    static func set(_ key: String, to value: String, _ db: Database) throws {
        try MetaRow(key: key, value: value).insert(db, onConflict: .replace)
    }

    /// Removes `key`, if it is there.
    static func remove(_ key: String, _ db: Database) throws {
        _ = try MetaRow.deleteOne(db, key: key)
    }

    /// The database's epoch; nil in a database without one.
    static func epoch(_ db: Database) throws -> String? {
        try value(epochKey, db)
    }

    /// Gives the database a new epoch (`UPDATE`: a database without one stays without).
    static func replaceEpoch(with epoch: String, _ db: Database) throws {
        try MetaRow.filter(Columns.key == epochKey).updateAll(db, Columns.value.set(to: epoch))
    }
}
