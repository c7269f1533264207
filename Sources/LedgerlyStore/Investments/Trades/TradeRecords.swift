import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Trades as the protocol sends them: each row with its asset's symbol and, for a sale, the sum
/// of its realisations as they are now.
enum TradeRecords {
    static func fetch(_ db: Database, id: Int64, field: FieldPath = .body("id")) throws -> TradeRecord {
        try records(db, [try TradeRow.find(db, id: id, field: field)])[0]
    }

    static func records(_ db: Database, _ rows: [TradeRow]) throws -> [TradeRecord] {
        var symbols: [Int64: String] = [:]
        return try rows.map { row in
            let symbol = try symbols[row.assetId] ?? symbol(db, assetId: row.assetId)
            symbols[row.assetId] = symbol
            return row.record(symbol: symbol, realised: row.tradeKind == .sell ? try realised(db, tradeId: row.id ?? 0, row: row) : nil)
        }
    }

    static func symbol(_ db: Database, assetId: Int64) throws -> String {
        try AssetRow.symbol(db, id: assetId) ?? "#\(assetId)"
    }

    /// A sale's realised gain: the sums of its lots' parts.
    static func realised(_ db: Database, tradeId: Int64, row: TradeRow) throws -> RealisedGain? {
        let parts = try Row.fetchAll(db, sql: "SELECT \(GainsReader.Part.columns) FROM realisations r WHERE r.trade_id = ? ORDER BY r.position", arguments: [tradeId])
            .map(GainsReader.Part.init)
        guard !parts.isEmpty else { return nil }
        return GainsReader.Part.sum(parts).gain(quoteExponent: CurrencyCatalog.exponent(for: row.currency),
                                                baseExponent: CurrencyCatalog.exponent(for: row.baseCurrency ?? row.currency))
    }

    /// Each sale's (cost base, currency effect) of an asset, to tell which a change recomputed.
    static func realisedSums(_ db: Database, assetId: Int64) throws -> [Int64: [Int64]] {
        var sums: [Int64: [Int64]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT trade_id, sum(cost_minor), sum(cost_base_minor), sum(proceeds_base_minor), sum(currency_effect_minor), count(*)
            FROM realisations WHERE asset_id = ? GROUP BY trade_id
            """, arguments: [assetId]) {
            sums[row[0]] = [row[1], row[2], row[3], row[4], row[5]]
        }
        return sums
    }
}
