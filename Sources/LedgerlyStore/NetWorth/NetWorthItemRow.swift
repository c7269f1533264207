import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// What a manual asset's row and a liability's row share: a named item of net worth that can be
/// archived, with a dated history (valuations, entries) kept in a table of its own. Each row type
/// still owns its table (D454); this holds the reads and the rules that were the same in both,
/// once (D552).
protocol NetWorthItemRow: FetchableRecord, MutablePersistableRecord, Sendable {
    associatedtype Record: Encodable
    /// What one is called in messages: "manual asset", "liability".
    static var itemName: String { get }
    /// The CLI command that lists them: `ledgerly <command> list`.
    static var listCommand: String { get }

    var id: Int64? { get }
    var name: String { get set }
    var archived: Bool { get set }
    var updatedAt: String { get set }

    /// The wire record; its whole history (valuations, entries) when `withHistory`.
    func itemRecord(_ db: Database, withHistory: Bool) throws -> Record
}

/// The columns `manual_assets` and `liabilities` share, by the same names.
enum NetWorthItemColumns {
    static let id = Column("id")
    static let name = Column("name")
    static let archived = Column("archived")
}

extension NetWorthItemRow {
    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> Self {
        guard let row = try Self.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no \(itemName) \(id); see `ledgerly \(listCommand) list`", field: field())
        }
        return row
    }

    /// Every item by name (the column's NOCASE order), then id; archived ones too when asked.
    static func byName(_ db: Database, includeArchived: Bool) throws -> [Self] {
        let all = Self.order(NetWorthItemColumns.name, NetWorthItemColumns.id)
        return try (includeArchived ? all : all.filter(NetWorthItemColumns.archived == false)).fetchAll(db)
    }

    /// The id of the item with this name (compared without case, as the column is), if any.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try Self.select(NetWorthItemColumns.id, as: Int64.self).filter(NetWorthItemColumns.name == name).fetchOne(db)
    }

    /// Refuses a name another item of the kind has.
    static func ensureNameFree(_ db: Database, name: String, except id: Int64?) throws {
        if let taken = try Self.id(named: name, db), taken != id {
            throw LedgerError.conflict("a \(itemName) named '\(name)' already exists", field: .body("name"))
        }
    }
}
