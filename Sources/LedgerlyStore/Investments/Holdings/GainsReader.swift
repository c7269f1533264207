import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.gains`: realised gains per sale and per lot, read from `realisations` (kept in step
/// with the trades by `TradeReplay`), a page at a time when asked, with totals and income over
/// the whole period summed in SQL.
enum GainsReader {
    static let maximumLimit = 10_000
    /// Pages of at most this many sales read their parts by trade id (well within SQLite's
    /// limit on a statement's parameters); longer ones by their range of dates.
    static let pageByIds = 999

    static func read(_ request: GainsRequest, _ db: Database) throws -> GainsReply {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        var tradeConditions: [String] = []
        var tradeArguments: StatementArguments = []
        if let year = request.year {
            guard (1900...9999).contains(year) else { throw LedgerError.invalid("body.year must be a year from 1900 to 9999, got \(year)", field: .body("year")) }
            conditions.append("r.date BETWEEN ? AND ?")
            arguments += ["\(year)-01-01", "\(year)-12-31"]
            tradeConditions.append("date BETWEEN ? AND ?")
            tradeArguments += ["\(year)-01-01", "\(year)-12-31"]
        }
        if let account = try InputRules.optionalId(request.accountId, field: .body("accountId")) {
            _ = try InvestAccountRow.find(db, id: account, field: .body("accountId"))
            conditions.append("r.account_id = ?")
            arguments += [account]
            tradeConditions.append("account_id = ?")
            tradeArguments += [account]
        }
        if let asset = try InputRules.optionalId(request.assetId, field: .body("assetId")) {
            _ = try AssetRow.find(db, id: asset, field: .body("assetId"))
            conditions.append("r.asset_id = ?")
            arguments += [asset]
            tradeConditions.append("asset_id = ?")
            tradeArguments += [asset]
        }
        if let limit = request.limit, !(1...maximumLimit).contains(limit) {
            throw LedgerError.invalid("body.limit must be 1 to \(maximumLimit), got \(limit)", field: .body("limit"))
        }

        // Totals and the count cover the period, whatever the page, the base currency kept on
        // each realisation (D142).
        var totals: [String: [Int64]] = [:]
        var saleCount = 0
        for sum in try RealisationRow.totals(db, conditions: conditions, arguments: arguments) {
            totals[sum.baseCurrency] = [sum.proceedsBase, sum.costBase, sum.currencyEffect, 0]
            saleCount += sum.sales
        }
        for (base, income) in try TradeRow.incomeByBaseCurrency(db, conditions: tradeConditions, arguments: tradeArguments) {
            totals[base, default: [0, 0, 0, 0]][3] += income
        }

        // The page: sales after the cursor, by date then trade id.
        var pageConditions = conditions
        var pageArguments = arguments
        if let after = request.after {
            let parts = after.split(separator: "/")
            guard parts.count == 2, LedgerDate(String(parts[0])) != nil, let tradeId = Int64(parts[1]) else {
                throw LedgerError.invalid("body.after must be a reply's `next` (\"2026-03-10/17\"), got '\(after)'", field: .body("after"))
            }
            pageConditions.append("(r.date > ? OR (r.date = ? AND r.trade_id > ?))")
            pageArguments += [String(parts[0]), String(parts[0]), tradeId]
        }
        let pageFilter = pageConditions.isEmpty ? "" : "WHERE " + pageConditions.joined(separator: " AND ")
        let fetchLimit = request.limit.map { $0 + 1 }
        let page = try RealisationRow.sales(db, conditions: pageConditions, arguments: pageArguments, limit: fetchLimit)
        let more = fetchLimit.map { page.count == $0 } ?? false
        let taken = more ? Array(page.dropLast()) : page
        let next = more ? taken.last.map { "\($0.date)/\($0.tradeId)" } : nil

        var sales: [SaleGain] = []
        if let first = taken.first, let last = taken.last {
            // Every part of the page's sales, in one ordered read (columns by position: this is the hot path).
            let select = """
                SELECT \(RealisationRow.Figures.columns), r.trade_id, r.account_id, r.asset_id, r.date, t.currency, t.base_currency, a.symbol, ia.cost_basis_method
                FROM realisations r JOIN trades t ON t.id = r.trade_id JOIN assets a ON a.id = r.asset_id JOIN invest_accounts ia ON ia.id = r.account_id
                """
            let rows: [Row]
            if taken.count <= pageByIds {
                // A page's sales by their ids (every part of a listed sale is in the period): the
                // range below walks the whole period's index to find them, 20 ms and more for a
                // year's first page at 100,000 trades (D142).
                let ids = taken.map(\.tradeId)
                rows = try Row.fetchAll(db, sql: "\(select) WHERE r.trade_id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY r.date, r.trade_id, r.position",
                                        arguments: StatementArguments(ids))
            } else {
                rows = try Row.fetchAll(db, sql: """
                    \(select) \(pageFilter.isEmpty ? "WHERE" : pageFilter + " AND") (r.date > ? OR (r.date = ? AND r.trade_id >= ?)) AND (r.date < ? OR (r.date = ? AND r.trade_id <= ?))
                    ORDER BY r.date, r.trade_id, r.position
                    """, arguments: pageArguments + [first.date, first.date, first.tradeId, last.date, last.date, last.tradeId])
            }
            var index = 0
            while index < rows.count {
                let head = rows[index]
                let tradeId: Int64 = head[8]
                var parts: [RealisationRow.Figures] = []
                while index < rows.count, rows[index][8] as Int64 == tradeId {
                    parts.append(try RealisationRow.Figures(rows[index]))
                    index += 1
                }
                let currency: String = head[12]
                let base: String = head[13]
                let quote = CurrencyCatalog.exponent(for: currency)
                let baseExponent = CurrencyCatalog.exponent(for: base)
                sales.append(SaleGain(
                    tradeId: tradeId, accountId: head[9], assetId: head[10], symbol: head[14], date: head[11], baseCurrency: base,
                    method: CostBasisMethod(rawValue: head[15]) ?? .fifo,
                    realised: RealisationRow.Figures.sum(parts).gain(quoteExponent: quote, baseExponent: baseExponent),
                    lots: parts.map { RealisedLot(lotId: $0.lotId, acquired: $0.acquired, realised: $0.gain(quoteExponent: quote, baseExponent: baseExponent)) }))
            }
        }
        return GainsReply(sales: sales, totals: totals.keys.sorted().map { code in
            let sum = totals[code]!
            let format = { InputRules.format($0, code) }
            let gain = sum[0] - sum[1]
            return GainsTotal(currency: code, proceedsBase: format(sum[0]), costBase: format(sum[1]), gain: format(gain), priceEffect: format(gain - sum[2]),
                              currencyEffect: format(sum[2]), income: format(sum[3]))
        }, saleCount: saleCount, next: next)
    }
}
