import GRDB
import LedgerlyCore

/// A row of `positions`: an account's lots of one asset summed, kept beside the lots by every
/// replay (`TradeReplay`) so holdings read one row per account and asset instead of every lot.
/// The one type that names the table's columns, and the one file holding every statement on it
/// (D454).
///
/// The statements are named SQL with the text they always had: the replay's insert runs on the
/// connection's statement cache in every `invest` write, and `invest.holdings` and net worth read
/// their columns by position (D455).
struct PositionRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "positions"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let accountId = Column("account_id")
        static let assetId = Column("asset_id")
        static let quantity = Column("quantity")
        static let costMinor = Column("cost_minor")
        static let costBaseMinor = Column("cost_base_minor")
    }

    var accountId: Int64
    var assetId: Int64
    /// The units held, as `Quantity`'s stored text.
    var quantity: String
    /// Quote-currency and base-currency minor units.
    var costMinor: Int64
    var costBaseMinor: Int64

    init(accountId: Int64, assetId: Int64, quantity: String, costMinor: Int64, costBaseMinor: Int64) {
        self.accountId = accountId
        self.assetId = assetId
        self.quantity = quantity
        self.costMinor = costMinor
        self.costBaseMinor = costBaseMinor
    }

    /// Read by name explicitly rather than through `Decodable`, which converts every column name
    /// from snake case on every row (D141).
    init(row: Row) throws {
        accountId = row[Columns.accountId]
        assetId = row[Columns.assetId]
        quantity = row[Columns.quantity]
        costMinor = row[Columns.costMinor]
        costBaseMinor = row[Columns.costBaseMinor]
    }

    // MARK: The replay's statements (`TradeReplay`)

    /// Replaces an asset's positions with its lots summed per account.
    static func replace(_ db: Database, assetId: Int64, summing lots: [LotBook.Lot]) throws {
        try db.execute(sql: "DELETE FROM positions WHERE asset_id = ?", arguments: [assetId])
        var positions: [Int64: (quantity: Quantity, cost: Int64, costBase: Int64)] = [:]
        for lot in lots {
            let sum = positions[lot.accountId, default: (.zero, 0, 0)]
            positions[lot.accountId] = (sum.quantity + lot.quantity, sum.cost + lot.cost, sum.costBase + lot.costBase)
        }
        for (account, sum) in positions {
            try db.execute(cached: "INSERT INTO positions (account_id, asset_id, quantity, cost_minor, cost_base_minor) VALUES (?, ?, ?, ?, ?)",
                           arguments: [account, assetId, sum.quantity.description, sum.cost, sum.costBase])
        }
    }

    // MARK: Reads

    /// Every position, or one account's, in the table's order (`invest.holdings`); columns by
    /// position, as the holdings read them before (D141).
    static func held(_ db: Database, accountId: Int64?) throws -> [PositionRow] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT account_id, asset_id, quantity, cost_minor, cost_base_minor FROM positions \(accountId == nil ? "" : "WHERE account_id = ?")
            """, arguments: accountId.map { [$0] } ?? [])
        var positions: [PositionRow] = []
        while let row = try rows.next() {
            positions.append(PositionRow(accountId: row[0], assetId: row[1], quantity: row[2], costMinor: row[3], costBaseMinor: row[4]))
        }
        return positions
    }

    /// Every position's units (`Quantity`'s stored text), with its account and asset: the
    /// holdings of today for net worth (`HoldingsAtDay`).
    static func units(_ db: Database) throws -> [(accountId: Int64, assetId: Int64, quantity: String)] {
        try Row.fetchAll(db, sql: "SELECT account_id, asset_id, quantity FROM positions").map { ($0[0], $0[1], $0[2]) }
    }
}
