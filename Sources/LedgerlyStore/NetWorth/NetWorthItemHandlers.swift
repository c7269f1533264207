import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The parts of `asset.*` and `liability.*` that are the same for both kinds of item (D552):
/// the currency a new one is in, list, get, archive, and recording a change with its event.
/// What differs (their fields, a value against a balance history, payments) stays in
/// `ManualAssetHandlers` and `LiabilityHandlers`.
enum NetWorthItemHandlers {
    /// A new item's currency: the one asked for, else the ledger's base currency.
    static func currency(_ requested: String?, _ db: Database) throws -> Currency {
        let ledgerBase = try SettingsHandlers.baseCurrency(db)
        guard let code = requested ?? ledgerBase else {
            throw LedgerError.invalid("body.currency is required until the ledger has a base currency", field: .body("currency"))
        }
        return try InputRules.currency(code, field: .body("currency"))
    }

    /// A new item's name, refused when another item of its kind has it.
    static func newName<Row: NetWorthItemRow>(_ text: String, of _: Row.Type, _ db: Database) throws -> String {
        let name = try InputRules.name(text, field: .body("name"))
        try Row.ensureNameFree(db, name: name, except: nil)
        return name
    }

    /// Renames the item when a name is given, refused when another item of its kind has it.
    static func rename<Row: NetWorthItemRow>(_ row: inout Row, to text: String?, _ db: Database) throws {
        guard let text else { return }
        row.name = try InputRules.name(text, field: .body("name"))
        try Row.ensureNameFree(db, name: row.name, except: row.id)
    }

    static func list<Row: NetWorthItemRow>(_: Row.Type, includeArchived: Bool?, _ db: Database) throws -> [Row.Record] {
        try Row.byName(db, includeArchived: includeArchived == true).map { try $0.itemRecord(db, withHistory: false) }
    }

    static func get<Row: NetWorthItemRow>(_: Row.Type, id: Int64, _ db: Database) throws -> Row.Record {
        try Row.find(db, id: try InputRules.positiveId(id, field: .body("id")), field: .body("id")).itemRecord(db, withHistory: true)
    }

    /// The item's record with its history, recorded as `event`.
    static func recorded<Row: NetWorthItemRow>(_ row: Row, _ event: ChangeEventType, _ context: inout WriteContext) throws -> Row.Record {
        let record = try row.itemRecord(context.db, withHistory: true)
        try context.record(event, id: String(row.id ?? 0), data: record)
        return record
    }

    /// Stores a changed item with the time of the change; its record with its history, recorded as `event`.
    static func saved<Row: NetWorthItemRow>(_ row: inout Row, _ event: ChangeEventType, _ context: inout WriteContext) throws -> Row.Record {
        row.updatedAt = context.now
        try row.update(context.db)
        return try recorded(row, event, &context)
    }

    /// Archives the item (once: archiving it again changes and records nothing); its record
    /// without its history.
    static func archive<Row: NetWorthItemRow>(_: Row.Type, id: Int64, event: ChangeEventType, _ context: inout WriteContext) throws -> Row.Record {
        var row = try Row.find(context.db, id: id, field: .body("id"))
        if !row.archived {
            row.archived = true
            row.updatedAt = context.now
            try row.update(context.db)
            try context.record(event, id: String(id), data: try row.itemRecord(context.db, withHistory: false))
        }
        return try row.itemRecord(context.db, withHistory: false)
    }
}
