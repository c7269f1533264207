import Foundation
import GRDB

/// Schema changes SQLite's ALTER TABLE cannot make, done the way SQLite's documentation
/// prescribes ("Making Other Kinds Of Table Schema Changes"): create the new table, copy the
/// rows, drop the old one, rename, and make its indexes again. Runs inside a migration, where
/// GRDB has foreign keys off (so the drop cascades nothing) and checks them at the end.
enum TableRebuild {
    enum Failure: Error, CustomStringConvertible {
        case unexpectedDefinition(table: String)

        var description: String {
            switch self {
            case .unexpectedDefinition(let table): "the stored definition of table \(table) does not declare `id INTEGER PRIMARY KEY,` as expected"
            }
        }
    }

    /// Rebuilds `table` with `id INTEGER PRIMARY KEY AUTOINCREMENT`, so SQLite never hands out
    /// an id again (not even the newest one after it was deleted). The new definition is the
    /// stored one with that clause changed, so columns, checks and their order stay as they are.
    static func addAutoincrement(_ db: Database, table: String) throws {
        guard let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) else {
            throw Failure.unexpectedDefinition(table: table)
        }
        if definition.contains("AUTOINCREMENT") { return }
        let rebuilt = "\(table)_rebuilt"
        guard let header = definition.range(of: "CREATE TABLE \(table) ("),
              let idClause = definition.range(of: "id INTEGER PRIMARY KEY,")
        else { throw Failure.unexpectedDefinition(table: table) }
        var newDefinition = definition
        newDefinition.replaceSubrange(idClause, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
        newDefinition.replaceSubrange(header, with: "CREATE TABLE \(rebuilt) (")
        let indexes = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [table])
        try db.execute(sql: newDefinition)
        try db.execute(sql: "INSERT INTO \(rebuilt) SELECT * FROM \(table)")
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE \(rebuilt) RENAME TO \(table)")
        for index in indexes { try db.execute(sql: index) }
    }
}
