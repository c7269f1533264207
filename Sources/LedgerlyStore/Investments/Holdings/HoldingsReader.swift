import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.holdings`: the open lots summed per account and asset, valued at each asset's latest
/// price and today's rate to the account's base currency, with the unrealised gain split into
/// price and currency effect (docs/investments.md, "Gains").
struct HoldingsReader {
    let db: Database
    let now: Date
    private let settings: SettingsRow
    private var rates: [String: ExchangeRate?] = [:]

    init(db: Database, now: Date) throws {
        self.db = db
        self.now = now
        self.settings = try SettingsRow.current(db)
    }

    /// One holding's figures in minor units, before formatting.
    struct Valued {
        var record: HoldingRecord
        var costBase: Int64
        var valueBase: Int64?
        var currencyEffect: Int64?
        var baseCurrency: String
    }

    static func read(_ request: HoldingsRequest, _ context: ReadContext) throws -> HoldingsReply {
        var reader = try HoldingsReader(db: context.db, now: context.date)
        let valued = try reader.holdings(accountId: request.accountId, includeLots: request.includeLots == true)
        var totals: [String: (cost: Int64, value: Int64, currency: Int64)] = [:]
        for holding in valued {
            guard let value = holding.valueBase, let currency = holding.currencyEffect else { continue }
            let sum = totals[holding.baseCurrency, default: (0, 0, 0)]
            totals[holding.baseCurrency] = (sum.cost + holding.costBase, sum.value + value, sum.currency + currency)
        }
        return HoldingsReply(holdings: valued.map(\.record), totals: totals.keys.sorted().map { code in
            let sum = totals[code]!
            let format = { InputRules.format($0, code) }
            let gain = sum.value - sum.cost
            return InvestTotal(currency: code, costBase: format(sum.cost), valueBase: format(sum.value), gain: format(gain),
                               priceEffect: format(gain - sum.currency), currencyEffect: format(sum.currency))
        })
    }

    /// Every holding (an account and asset with open lots), ordered by account and symbol.
    mutating func holdings(accountId: Int64?, includeLots: Bool) throws -> [Valued] {
        let accounts = try InvestAccountRow.all(db)
        let assets = Dictionary(uniqueKeysWithValues: try AssetRow.fetchAll(db).map { ($0.id ?? 0, $0) })
        let prices = try PriceSnapshotRow.latestOfEveryAsset(db)
        var result: [Valued] = []
        if includeLots {
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM lots \(accountId == nil ? "" : "WHERE account_id = ?") ORDER BY account_id, asset_id, acquired, id
                """, arguments: accountId.map { [$0] } ?? [])
            var groups: [(key: [Int64], lots: [Row])] = []
            for row in rows {
                let key: [Int64] = [row["account_id"], row["asset_id"]]
                if groups.last?.key == key { groups[groups.count - 1].lots.append(row) } else { groups.append((key, [row])) }
            }
            for group in groups {
                guard let account = accounts[group.key[0]], let asset = assets[group.key[1]] else { continue }
                let quote = try asset.currency
                let base = try InputRules.currency(account.baseCurrency, field: .wholeBody)
                var position = Position(quantity: .zero, cost: 0, costBase: 0, lots: [])
                for lot in group.lots {
                    let units = try Quantity(stored: lot["quantity"])
                    position.quantity = position.quantity + units
                    position.cost += lot["cost_minor"] as Int64
                    position.costBase += lot["cost_base_minor"] as Int64
                    position.lots?.append(LotRecord(id: lot["id"], accountId: account.id ?? 0, acquired: lot["acquired"], quantity: units.description,
                                                    cost: InputRules.format(lot["cost_minor"], quote.code), costBase: InputRules.format(lot["cost_base_minor"], base.code)))
                }
                result.append(try value(account: account, asset: asset, position: position, price: prices[asset.id ?? 0]))
            }
        } else {
            // Positions are the lots summed, kept by every replay: one row per account and asset.
            let rows = try Row.fetchAll(db, sql: """
                SELECT account_id, asset_id, quantity, cost_minor, cost_base_minor FROM positions \(accountId == nil ? "" : "WHERE account_id = ?")
                """, arguments: accountId.map { [$0] } ?? [])
            for row in rows {
                guard let account = accounts[row[0]], let asset = assets[row[1]] else { continue }
                let position = Position(quantity: try Quantity(stored: row[2]), cost: row[3], costBase: row[4], lots: nil)
                result.append(try value(account: account, asset: asset, position: position, price: prices[asset.id ?? 0]))
            }
        }
        return result.sorted { ($0.record.accountId, $0.record.symbol) < ($1.record.accountId, $1.record.symbol) }
    }

    /// A holding's units and cost before valuing; `lots` when they are to be listed.
    struct Position {
        var quantity: Quantity
        var cost: Int64
        var costBase: Int64
        var lots: [LotRecord]?
    }

    private mutating func value(account: InvestAccountRow, asset: AssetRow, position: Position, price snapshotRow: PriceSnapshotRow?) throws -> Valued {
        let quote = try asset.currency
        let base = try InputRules.currency(account.baseCurrency, field: .wholeBody)
        let quantity = position.quantity, cost = position.cost, costBase = position.costBase
        var warnings: [String] = []
        var price: HoldingPrice?
        var value: Int64?
        var valueBase: Int64?
        var currencyEffect: Int64?
        var unrealised: UnrealisedGain?
        let rate = try self.rate(from: quote, to: base)
        if let snapshot = snapshotRow {
            let limit = asset.staleMinutes(settings)
            let record = snapshot.record(symbol: asset.symbol, now: now, staleMinutes: limit)
            let age = Int64(now.timeIntervalSince(Timestamp.parse(snapshot.asOf) ?? now))
            price = HoldingPrice(price: snapshot.price, currency: snapshot.currency, source: snapshot.source, asOf: snapshot.asOf, ageSeconds: max(0, age), stale: record.stale)
            if record.stale {
                warnings.append("the price of \(asset.symbol) is \(StalenessPolicy.describe(.seconds(max(0, age)))) old, past its limit of \(limit) minutes: the value uses it anyway")
            }
            let unit = try ExchangeRate(stored: snapshot.price)
            value = TradeRules.value(quantity, unit, currency: quote)
            if value == nil { warnings.append("\(quantity) \(asset.symbol) at \(snapshot.price) \(quote.code) is too large a value to count") }
        } else {
            warnings.append("\(asset.symbol) has no price yet: set one with `ledgerly invest prices set \(asset.symbol) PRICE`")
        }
        if rate == nil {
            warnings.append("no rate from \(quote.code) to \(base.code) is known: the value in \(base.code) is unknown")
        }
        if let value, let rate {
            let worth = try TradeRules.convert(value, from: quote, to: base, rate: rate, field: .wholeBody)
            let costNow = try TradeRules.convert(cost, from: quote, to: base, rate: rate, field: .wholeBody)
            valueBase = worth
            currencyEffect = costNow - costBase
            let total = worth - costBase
            unrealised = UnrealisedGain(total: InputRules.format(total, base.code), priceEffect: InputRules.format(total - (costNow - costBase), base.code),
                                        currencyEffect: InputRules.format(costNow - costBase, base.code))
        }
        let record = HoldingRecord(
            accountId: account.id ?? 0, assetId: asset.id ?? 0, symbol: asset.symbol, assetType: asset.type, allocationGroup: asset.allocationGroup,
            quantity: quantity.description, currency: quote.code, baseCurrency: base.code, cost: InputRules.format(cost, quote.code),
            costBase: InputRules.format(costBase, base.code), price: price, value: value.map { InputRules.format($0, quote.code) },
            valueBase: valueBase.map { InputRules.format($0, base.code) }, rate: rate?.decimalString, unrealised: unrealised, warnings: warnings,
            lots: position.lots)
        return Valued(record: record, costBase: costBase, valueBase: valueBase, currencyEffect: currencyEffect, baseCurrency: base.code)
    }

    /// Today's rate between two currencies in the active profile, read once per pair.
    private mutating func rate(from: Currency, to: Currency) throws -> ExchangeRate? {
        let key = from.code + to.code
        if let known = rates[key] { return known }
        let found = try? TradeRules.rate(nil, from: from, to: to, day: Timestamp.today(at: now), db: db, now: now, field: .wholeBody)
        rates[key] = found
        return found
    }
}
