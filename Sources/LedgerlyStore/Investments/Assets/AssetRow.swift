import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `assets`: the one type that reads and writes the table, and the one place a stored
/// asset becomes its wire record.
struct AssetRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "assets"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let symbol = Column("symbol")
    }

    var id: Int64?
    var symbol: String
    var assetType: String
    var name: String?
    var exchange: String?
    var quoteCurrency: String
    var provider: String
    var providerId: String?
    var allocationGroup: String?
    var watched: Bool
    var createdAt: String
    var updatedAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var type: AssetType { AssetType(rawValue: assetType) ?? .other }

    var record: AssetRecord {
        AssetRecord(
            id: id ?? 0, symbol: symbol, assetType: type, name: name, exchange: exchange, quoteCurrency: quoteCurrency,
            provider: PriceProvider(rawValue: provider) ?? .manual, providerId: providerId, allocationGroup: allocationGroup, watched: watched,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    var currency: Currency {
        get throws { try InputRules.currency(quoteCurrency, field: .wholeBody) }
    }

    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> AssetRow {
        guard let row = try AssetRow.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no asset \(id); see `ledgerly invest asset list`", field: field())
        }
        return row
    }

    /// Every asset by symbol (unique, compared without case), then id.
    static func bySymbol(_ db: Database) throws -> [AssetRow] {
        try AssetRow.order(Columns.symbol, Columns.id).fetchAll(db)
    }

    /// The id of the asset with this symbol (compared without case, as the column is), if any.
    static func id(symbol: String, _ db: Database) throws -> Int64? {
        try db.cachedValue(Int64.self, sql: "SELECT id FROM assets WHERE symbol = ?", arguments: [symbol])
    }

    static func symbol(_ db: Database, id: Int64) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT symbol FROM assets WHERE id = ?", arguments: [id])
    }

    /// The assets a provider is asked to price: not manual, and watched or held (a lot), by symbol.
    static func wantingPrices(_ db: Database) throws -> [AssetRow] {
        try AssetRow.fetchAll(db, sql: """
            SELECT * FROM assets WHERE provider != 'manual' AND (watched = 1 OR EXISTS (SELECT 1 FROM lots WHERE lots.asset_id = assets.id)) ORDER BY symbol
            """)
    }

    /// Every asset by id, read with its columns by position: GRDB's `Codable` decoding converts
    /// every column name from snake case for every row, which was a fifth of `invest.holdings`
    /// at 1,000 assets (D141).
    static func everyAsset(_ db: Database) throws -> [Int64: AssetRow] {
        var assets: [Int64: AssetRow] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, symbol, asset_type, name, exchange, quote_currency, provider, provider_id, allocation_group, watched, created_at, updated_at FROM assets
            """)
        while let row = try rows.next() {
            let id: Int64 = row[0]
            assets[id] = AssetRow(id: id, symbol: row[1], assetType: row[2], name: row[3], exchange: row[4], quoteCurrency: row[5], provider: row[6],
                                  providerId: row[7], allocationGroup: row[8], watched: row[9], createdAt: row[10], updatedAt: row[11])
        }
        return assets
    }

    /// Minutes after which a price of this asset is stale (crypto, or anything else).
    func staleMinutes(_ settings: SettingsRow) -> Int {
        type == .crypto ? settings.staleCryptoMinutes : settings.staleEquityMinutes
    }
}
