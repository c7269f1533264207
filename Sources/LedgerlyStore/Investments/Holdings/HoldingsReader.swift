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
    /// Per request, each rate (and its text), currency and price time is worked out once, not
    /// once per holding: 1,000 holdings share a handful of each (D141).
    private var rates: [String: (rate: ExchangeRate?, text: String?)] = [:]
    private var currencies: [String: Currency] = [:]
    private var times: [String: Date?] = [:]

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
        if let limit = request.limit, !(1...GainsReader.maximumLimit).contains(limit) {
            throw LedgerError.invalid("body.limit must be 1 to \(GainsReader.maximumLimit), got \(limit)", field: .body("limit"))
        }
        _ = try InputRules.optionalId(request.accountId, field: .body("accountId"))
        let after = try request.after.map { after in
            let parts = after.split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let accountId = Int64(parts[0]), !parts[1].isEmpty else {
                throw LedgerError.invalid("body.after must be a reply's `next` (\"1/ACME\"), got \(InputEcho.quoted(after))", field: .body("after"))
            }
            return (accountId, String(parts[1]))
        }
        var reader = try HoldingsReader(db: context.db, now: context.date)
        let includeLots = request.includeLots == true
        // Every holding is valued (the totals cover them all); only the page's are formatted.
        let figures = try reader.figures(accountId: request.accountId, includeLots: includeLots)
        var totals: [String: (cost: Int64, value: Int64, currency: Int64)] = [:]
        for holding in figures {
            guard let value = holding.valueBase, let currency = holding.currencyEffect else { continue }
            let sum = totals[holding.base.code, default: (0, 0, 0)]
            totals[holding.base.code] = (sum.cost + holding.position.costBase, sum.value + value, sum.currency + currency)
        }
        var page = figures[...]
        if let after { page = page.drop(while: { ($0.account.id ?? 0, $0.asset.symbol) <= after }) }
        var next: String?
        if let limit = request.limit, page.count > limit {
            page = page.prefix(limit)
            next = page.last.map { "\($0.account.id ?? 0)/\($0.asset.symbol)" }
        }
        return HoldingsReply(holdings: page.map { reader.record($0).record }, totals: totals.keys.sorted().map { code in
            let sum = totals[code]!
            let format = { InputRules.format($0, code) }
            let gain = sum.value - sum.cost
            return InvestTotal(currency: code, costBase: format(sum.cost), valueBase: format(sum.value), gain: format(gain),
                               priceEffect: format(gain - sum.currency), currencyEffect: format(sum.currency))
        }, holdingCount: figures.count, next: next)
    }

    /// Every holding (an account and asset with open lots), ordered by account and symbol.
    mutating func holdings(accountId: Int64?, includeLots: Bool) throws -> [Valued] {
        try figures(accountId: accountId, includeLots: includeLots).map { record($0) }
    }

    /// Every holding valued in minor units, not yet formatted, ordered by account and symbol.
    mutating func figures(accountId: Int64?, includeLots: Bool) throws -> [Figures] {
        let accounts = try InvestAccountRow.all(db)
        let assets = try AssetRow.everyAsset(db)
        let prices = try PriceSnapshotRow.latestOfEveryAsset(db)
        var result: [Figures] = []
        if includeLots {
            var groups: [(key: [Int64], lots: [LotRow])] = []
            for lot in try LotRow.open(db, accountId: accountId) {
                let key = [lot.accountId, lot.assetId]
                if groups.last?.key == key { groups[groups.count - 1].lots.append(lot) } else { groups.append((key, [lot])) }
            }
            for group in groups {
                guard let account = accounts[group.key[0]], let asset = assets[group.key[1]] else { continue }
                let quote = try currency(asset.quoteCurrency)
                let base = try currency(account.baseCurrency)
                var position = Position(quantity: .zero, cost: 0, costBase: 0, lots: [])
                for lot in group.lots {
                    let units = try Quantity(stored: lot.quantity)
                    position.quantity = position.quantity + units
                    position.cost += lot.costMinor
                    position.costBase += lot.costBaseMinor
                    position.lots?.append(LotRecord(id: lot.id, accountId: account.id ?? 0, acquired: lot.acquired, quantity: units.description,
                                                    cost: InputRules.format(lot.costMinor, quote.code), costBase: InputRules.format(lot.costBaseMinor, base.code)))
                }
                result.append(try value(account: account, asset: asset, position: position, price: prices[asset.id ?? 0]))
            }
        } else {
            // Positions are the lots summed, kept by every replay: one row per account and asset.
            for held in try PositionRow.held(db, accountId: accountId) {
                guard let account = accounts[held.accountId], let asset = assets[held.assetId] else { continue }
                let position = Position(quantity: try HoldingValue.quantity(stored: held.quantity) ?? Quantity(stored: held.quantity), cost: held.costMinor,
                                        costBase: held.costBaseMinor, lots: nil)
                result.append(try value(account: account, asset: asset, position: position, price: prices[asset.id ?? 0]))
            }
        }
        return result.sorted { ($0.account.id ?? 0, $0.asset.symbol) < ($1.account.id ?? 0, $1.asset.symbol) }
    }

    /// A holding's units and cost before valuing; `lots` when they are to be listed.
    struct Position {
        var quantity: Quantity
        var cost: Int64
        var costBase: Int64
        var lots: [LotRecord]?
    }

    /// One holding valued in minor units: what the totals need, before any text is made.
    struct Figures {
        var account: InvestAccountRow
        var asset: AssetRow
        var position: Position
        var quote: Currency
        var base: Currency
        var snapshot: PriceSnapshotRow?
        var priceTime: Date?
        var rate: ExchangeRate?
        var rateText: String?
        var value: Int64?
        var valueBase: Int64?
        /// `round(cost × rate)`, with `valueBase`.
        var costNow: Int64?
        var currencyEffect: Int64? { costNow.map { $0 - position.costBase } }
    }

    private mutating func value(account: InvestAccountRow, asset: AssetRow, position: Position, price snapshot: PriceSnapshotRow?) throws -> Figures {
        let quote = try currency(asset.quoteCurrency)
        let base = try currency(account.baseCurrency)
        let (rate, rateText) = try self.rate(from: quote, to: base)
        var figures = Figures(account: account, asset: asset, position: position, quote: quote, base: base, snapshot: snapshot, rate: rate, rateText: rateText)
        if let snapshot {
            figures.priceTime = time(snapshot.asOf)
            if let exact = HoldingValue.value(position.quantity, price: snapshot.price, exponent: quote.exponent) {
                figures.value = exact
            } else {
                let unit = try ExchangeRate(stored: snapshot.price)
                figures.value = TradeRules.value(position.quantity, unit, currency: quote)
            }
        }
        if let value = figures.value, let rate {
            figures.valueBase = try Self.convert(value, from: quote, to: base, rate: rate, text: rateText)
            figures.costNow = try Self.convert(position.cost, from: quote, to: base, rate: rate, text: rateText)
        }
        return figures
    }

    /// `TradeRules.convert`, without the decimal arithmetic when nothing changes (the same
    /// currency at a rate of exactly 1 leaves every amount the ledger accepts as it is) or when
    /// `HoldingValue` can do it exactly in integers; `text` is the rate's `decimalString`.
    private static func convert(_ amount: Int64, from: Currency, to: Currency, rate: ExchangeRate, text: String?) throws -> Int64 {
        if from == to, rate == .one, amount.magnitude < Money.maximumMinorUnits.magnitude { return amount }
        if let text, let exact = HoldingValue.convert(amount, rate: text, fromExponent: from.exponent, toExponent: to.exponent) { return exact }
        return try TradeRules.convert(amount, from: from, to: to, rate: rate, field: .wholeBody)
    }

    /// The holding's wire record, with its warnings.
    func record(_ figures: Figures) -> Valued {
        let asset = figures.asset, quote = figures.quote, base = figures.base
        let quantity = figures.position.quantity, cost = figures.position.cost, costBase = figures.position.costBase
        var warnings: [String] = []
        var price: HoldingPrice?
        var unrealised: UnrealisedGain?
        if let snapshot = figures.snapshot {
            let limit = asset.staleMinutes(settings)
            // As `PriceSnapshotRow.record` judges staleness.
            let elapsed = now.timeIntervalSince(figures.priceTime ?? now)
            let stale = elapsed > Double(limit) * 60
            let age = Int64(elapsed)
            price = HoldingPrice(price: snapshot.price, currency: snapshot.currency, source: snapshot.source, asOf: snapshot.asOf, ageSeconds: max(0, age), stale: stale)
            if stale {
                warnings.append("the price of \(asset.symbol) is \(StalenessPolicy.describe(.seconds(max(0, age)))) old, past its limit of \(limit) minutes: the value uses it anyway")
            }
            if figures.value == nil { warnings.append("\(quantity) \(asset.symbol) at \(snapshot.price) \(quote.code) is too large a value to count") }
        } else {
            warnings.append("\(asset.symbol) has no price yet: set one with `ledgerly invest prices set \(asset.symbol) PRICE`")
        }
        if figures.rate == nil {
            warnings.append("no rate from \(quote.code) to \(base.code) is known: the value in \(base.code) is unknown")
        }
        if let worth = figures.valueBase, let costNow = figures.costNow {
            let total = worth - costBase
            unrealised = UnrealisedGain(total: InputRules.format(total, base.code), priceEffect: InputRules.format(total - (costNow - costBase), base.code),
                                        currencyEffect: InputRules.format(costNow - costBase, base.code))
        }
        let record = HoldingRecord(
            accountId: figures.account.id ?? 0, assetId: asset.id ?? 0, symbol: asset.symbol, assetType: asset.type, allocationGroup: asset.allocationGroup,
            quantity: quantity.description, currency: quote.code, baseCurrency: base.code, cost: InputRules.format(cost, quote.code),
            costBase: InputRules.format(costBase, base.code), price: price, value: figures.value.map { InputRules.format($0, quote.code) },
            valueBase: figures.valueBase.map { InputRules.format($0, base.code) }, rate: figures.rateText, unrealised: unrealised, warnings: warnings,
            lots: figures.position.lots)
        return Valued(record: record, costBase: costBase, valueBase: figures.valueBase, currencyEffect: figures.currencyEffect, baseCurrency: base.code)
    }

    /// A currency code as stored, checked once per request.
    private mutating func currency(_ code: String) throws -> Currency {
        if let known = currencies[code] { return known }
        let currency = try InputRules.currency(code, field: .wholeBody)
        currencies[code] = currency
        return currency
    }

    /// A price's time, parsed once per request (a batch of prices shares one).
    private mutating func time(_ text: String) -> Date? {
        if let known = times[text] { return known }
        let parsed = Timestamp.parse(text)
        times[text] = parsed
        return parsed
    }

    /// Today's rate between two currencies in the active profile, and its text, read once per pair.
    private mutating func rate(from: Currency, to: Currency) throws -> (ExchangeRate?, String?) {
        let key = from.code + to.code
        if let known = rates[key] { return known }
        let found = try? TradeRules.rate(nil, from: from, to: to, day: Timestamp.today(at: now), db: db, now: now, field: .wholeBody)
        rates[key] = (found, found?.decimalString)
        return (found, found?.decimalString)
    }
}
