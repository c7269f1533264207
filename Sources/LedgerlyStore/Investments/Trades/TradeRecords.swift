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
        let parts = try RealisationRow.figures(db, tradeId: tradeId)
        guard !parts.isEmpty else { return nil }
        return RealisationRow.Figures.sum(parts).gain(quoteExponent: CurrencyCatalog.exponent(for: row.currency),
                                                      baseExponent: CurrencyCatalog.exponent(for: row.baseCurrency ?? row.currency))
    }
}
