import GRDB
import LedgerlyCore

/// A row of `lots`: one open lot of an asset in an account, derived from the trades by
/// `TradeReplay` and never written by anything else. The one type that names the table's
/// columns, and the one file holding every statement on it (D454).
///
/// The replay's statements are named SQL with the text they always had, the insert on the
/// connection's statement cache: they run once per lot in every `invest` write (D455).
struct LotRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "lots"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let accountId = Column("account_id")
        static let assetId = Column("asset_id")
        static let acquired = Column("acquired")
        static let quantity = Column("quantity")
        static let costMinor = Column("cost_minor")
        static let costBaseMinor = Column("cost_base_minor")
        static let lotOrder = Column("lot_order")
    }

    /// The buy that opened the lot (a transfer keeps it); unique within the account.
    var id: Int64
    var accountId: Int64
    var assetId: Int64
    var acquired: String
    /// The units left, as `Quantity`'s stored text.
    var quantity: String
    /// Quote-currency and base-currency minor units of what is left.
    var costMinor: Int64
    var costBaseMinor: Int64
    /// `LotBook.Lot.order`: orders a day's lots the same on every device (`TradeRow.lotOrder`).
    var lotOrder: String

    /// Read by name explicitly rather than through `Decodable`, which converts every column name
    /// from snake case on every row (D141).
    init(row: Row) throws {
        id = row[Columns.id]
        accountId = row[Columns.accountId]
        assetId = row[Columns.assetId]
        acquired = row[Columns.acquired]
        quantity = row[Columns.quantity]
        costMinor = row[Columns.costMinor]
        costBaseMinor = row[Columns.costBaseMinor]
        lotOrder = row[Columns.lotOrder]
    }

    /// The lot as `LotBook` holds it.
    var bookLot: LotBook.Lot {
        get throws {
            LotBook.Lot(id: id, accountId: accountId, acquired: acquired, quantity: try Quantity(stored: quantity), cost: costMinor, costBase: costBaseMinor, order: lotOrder)
        }
    }

    // MARK: The replay's statements (`TradeReplay`)

    /// An asset's lots as they stand, for a trade applied after all the others.
    static func bookLots(_ db: Database, assetId: Int64) throws -> [LotBook.Lot] {
        try LotRow.fetchAll(db, sql: "SELECT * FROM lots WHERE asset_id = ?", arguments: [assetId]).map { try $0.bookLot }
    }

    /// Replaces an asset's lots with the book's.
    static func replace(_ db: Database, assetId: Int64, with lots: [LotBook.Lot]) throws {
        try db.execute(sql: "DELETE FROM lots WHERE asset_id = ?", arguments: [assetId])
        for lot in lots {
            try db.execute(cached: "INSERT INTO lots (id, account_id, asset_id, acquired, quantity, cost_minor, cost_base_minor, lot_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           arguments: [lot.id, lot.accountId, assetId, lot.acquired, lot.quantity.description, lot.cost, lot.costBase, lot.order])
        }
    }

    // MARK: Reads

    /// Every open lot, or one account's, by account, asset, day acquired and id
    /// (`invest.holdings --lots`).
    static func open(_ db: Database, accountId: Int64?) throws -> [LotRow] {
        var lots = LotRow.all()
        if let accountId { lots = lots.filter(Columns.accountId == accountId) }
        return try lots.order(Columns.accountId, Columns.assetId, Columns.acquired, Columns.id).fetchAll(db)
    }
}
