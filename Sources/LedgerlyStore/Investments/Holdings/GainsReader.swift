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
        let fetchLimit = request.limit.map { $0 + 1 }
        let page = try RealisationRow.salesPage(db, conditions: pageConditions, arguments: pageArguments, limit: fetchLimit)
        let more = fetchLimit.map { page.count == $0 } ?? false
        let taken = more ? Array(page.dropLast()) : page
        let next = more ? taken.last.map { "\($0.date)/\($0.tradeId)" } : nil

        var sales: [SaleGain] = []
        if let first = taken.first, let last = taken.last {
            // A page's sales by their ids (every part of a listed sale is in the period): the range
            // walks the whole period's index to find them (D142).
            let read = taken.count <= pageByIds
                ? try RealisationRow.saleParts(db, tradeIds: taken.map(\.tradeId))
                : try RealisationRow.saleParts(db, conditions: pageConditions, arguments: pageArguments, first: first, last: last)
            for sale in read {
                let quote = CurrencyCatalog.exponent(for: sale.currency)
                let baseExponent = CurrencyCatalog.exponent(for: sale.baseCurrency)
                sales.append(SaleGain(
                    tradeId: sale.tradeId, accountId: sale.accountId, assetId: sale.assetId, symbol: sale.symbol, date: sale.date, baseCurrency: sale.baseCurrency,
                    method: CostBasisMethod(rawValue: sale.method) ?? .fifo,
                    realised: RealisationRow.Figures.sum(sale.parts).gain(quoteExponent: quote, baseExponent: baseExponent),
                    lots: sale.parts.map { RealisedLot(lotId: $0.lotId, acquired: $0.acquired, realised: $0.gain(quoteExponent: quote, baseExponent: baseExponent)) }))
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
