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
        try String.fetchOne(db, sql: "SELECT symbol FROM assets WHERE id = ?", arguments: [assetId]) ?? "#\(assetId)"
    }

    /// A sale's realised gain: the sums of its lots' parts.
    static func realised(_ db: Database, tradeId: Int64, row: TradeRow) throws -> RealisedGain? {
        let parts = try Row.fetchAll(db, sql: "SELECT * FROM realisations WHERE trade_id = ? ORDER BY position", arguments: [tradeId])
        guard !parts.isEmpty else { return nil }
        let quote = CurrencyCatalog.exponent(for: row.currency)
        let base = CurrencyCatalog.exponent(for: row.baseCurrency ?? row.currency)
        let quantity = try parts.reduce(Quantity.zero) { $0 + (try Quantity(stored: $1["quantity"])) }
        return gain(quantity: quantity, parts: parts, quoteExponent: quote, baseExponent: base)
    }

    /// Sums realisation rows into one figure set.
    static func gain(quantity: Quantity, parts: [Row], quoteExponent: Int, baseExponent: Int) -> RealisedGain {
        let sum = { (column: String) in parts.reduce(Int64(0)) { $0 + ($1[column] as Int64) } }
        let costBase = sum("cost_base_minor")
        let proceedsBase = sum("proceeds_base_minor")
        let currencyEffect = sum("currency_effect_minor")
        let gain = proceedsBase - costBase
        let quote = { Money.format(minorUnits: $0, exponent: quoteExponent) }
        let base = { Money.format(minorUnits: $0, exponent: baseExponent) }
        return RealisedGain(quantity: quantity.description, cost: quote(sum("cost_minor")), proceeds: quote(sum("proceeds_minor")), costBase: base(costBase),
                            proceedsBase: base(proceedsBase), gain: base(gain), priceEffect: base(gain - currencyEffect), currencyEffect: base(currencyEffect))
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
