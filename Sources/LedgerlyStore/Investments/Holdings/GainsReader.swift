import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.gains`: realised gains per sale and per lot, read from `realisations` (kept in step
/// with the trades by `TradeReplay`), and income per base currency.
enum GainsReader {
    static func read(_ request: GainsRequest, _ db: Database) throws -> GainsReply {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let year = request.year {
            guard (1900...9999).contains(year) else { throw LedgerError.invalid("body.year must be a year from 1900 to 9999, got \(year)", field: .body("year")) }
            conditions.append("r.date BETWEEN ? AND ?")
            arguments += ["\(year)-01-01", "\(year)-12-31"]
        }
        if let account = request.accountId {
            _ = try InvestAccountRow.find(db, id: account, field: .body("accountId"))
            conditions.append("r.account_id = ?")
            arguments += [account]
        }
        if let asset = request.assetId {
            _ = try AssetRow.find(db, id: asset, field: .body("assetId"))
            conditions.append("r.asset_id = ?")
            arguments += [asset]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.*, t.currency, t.base_currency, a.symbol, ia.cost_basis_method
            FROM realisations r JOIN trades t ON t.id = r.trade_id JOIN assets a ON a.id = r.asset_id JOIN invest_accounts ia ON ia.id = r.account_id
            \(filter) ORDER BY r.date, r.trade_id, r.position
            """, arguments: arguments)
        var sales: [SaleGain] = []
        var totals: [String: [Int64]] = [:]
        var index = 0
        while index < rows.count {
            let first = rows[index]
            let tradeId: Int64 = first["trade_id"]
            var parts: [Row] = []
            while index < rows.count, rows[index]["trade_id"] as Int64 == tradeId {
                parts.append(rows[index])
                index += 1
            }
            let currency: String = first["currency"]
            let base: String = first["base_currency"]
            let quote = CurrencyCatalog.exponent(for: currency)
            let baseExponent = CurrencyCatalog.exponent(for: base)
            let lots = try parts.map { part in
                RealisedLot(lotId: part["lot_id"], acquired: part["acquired"],
                            realised: TradeRecords.gain(quantity: try Quantity(stored: part["quantity"]), parts: [part], quoteExponent: quote, baseExponent: baseExponent))
            }
            let quantity = try parts.reduce(Quantity.zero) { $0 + (try Quantity(stored: $1["quantity"])) }
            sales.append(SaleGain(
                tradeId: tradeId, accountId: first["account_id"], assetId: first["asset_id"], symbol: first["symbol"], date: first["date"], baseCurrency: base,
                method: CostBasisMethod(rawValue: first["cost_basis_method"]) ?? .fifo,
                realised: TradeRecords.gain(quantity: quantity, parts: parts, quoteExponent: quote, baseExponent: baseExponent), lots: lots))
            var sum = totals[base, default: [0, 0, 0, 0]]
            for part in parts {
                sum[0] += part["proceeds_base_minor"] as Int64
                sum[1] += part["cost_base_minor"] as Int64
                sum[2] += part["currency_effect_minor"] as Int64
            }
            totals[base] = sum
        }
        // Income in the same period, accounts and assets.
        var incomeConditions = ["kind IN ('dividend', 'interest', 'distribution')"]
        var incomeArguments: StatementArguments = []
        if let year = request.year { incomeConditions.append("date BETWEEN ? AND ?"); incomeArguments += ["\(year)-01-01", "\(year)-12-31"] }
        if let account = request.accountId { incomeConditions.append("account_id = ?"); incomeArguments += [account] }
        if let asset = request.assetId { incomeConditions.append("asset_id = ?"); incomeArguments += [asset] }
        for row in try Row.fetchAll(db, sql: "SELECT base_currency, sum(amount_base_minor) FROM trades WHERE \(incomeConditions.joined(separator: " AND ")) GROUP BY base_currency",
                                    arguments: incomeArguments) {
            let base: String = row[0]
            var sum = totals[base, default: [0, 0, 0, 0]]
            sum[3] += row[1] as Int64
            totals[base] = sum
        }
        return GainsReply(sales: sales, totals: totals.keys.sorted().map { code in
            let sum = totals[code]!
            let format = { InputRules.format($0, code) }
            let gain = sum[0] - sum[1]
            return GainsTotal(currency: code, proceedsBase: format(sum[0]), costBase: format(sum[1]), gain: format(gain), priceEffect: format(gain - sum[2]),
                              currencyEffect: format(sum[2]), income: format(sum[3]))
        })
    }
}
