import LedgerlyCore

/// An open lot: units still held from one buy (or transfer in), with what they cost.
public struct LotRecord: Codable, Hashable, Sendable {
    /// The id of the buy that opened it; a lot moved by a transfer keeps it (D134).
    public var id: Int64
    public var accountId: Int64
    /// When the units were first bought (a transfer keeps it).
    public var acquired: String
    public var quantity: String
    /// In the quote currency and in the account's base currency.
    public var cost: String
    public var costBase: String

    public init(id: Int64, accountId: Int64, acquired: String, quantity: String, cost: String, costBase: String) {
        self.id = id
        self.accountId = accountId
        self.acquired = acquired
        self.quantity = quantity
        self.cost = cost
        self.costBase = costBase
    }
}

/// The price a holding is valued at.
public struct HoldingPrice: Codable, Hashable, Sendable {
    public var price: String
    public var currency: String
    public var source: String
    public var asOf: String
    public var ageSeconds: Int64
    /// Older than the asset type's limit: the value is shown, with a warning.
    public var stale: Bool

    public init(price: String, currency: String, source: String, asOf: String, ageSeconds: Int64, stale: Bool) {
        self.price = price
        self.currency = currency
        self.source = source
        self.asOf = asOf
        self.ageSeconds = ageSeconds
        self.stale = stale
    }
}

/// What a holding would gain if sold at its price today, in the account's base currency:
/// `total = valueBase − costBase`, `currencyEffect = round(cost × rate) − costBase`,
/// `priceEffect = total − currencyEffect`.
public struct UnrealisedGain: Codable, Hashable, Sendable {
    public var total: String
    public var priceEffect: String
    public var currencyEffect: String
    public init(total: String, priceEffect: String, currencyEffect: String) {
        self.total = total
        self.priceEffect = priceEffect
        self.currencyEffect = currencyEffect
    }
}

/// One asset in one account.
public struct HoldingRecord: Codable, Hashable, Sendable {
    public var accountId: Int64
    public var assetId: Int64
    public var symbol: String
    public var assetType: AssetType
    public var allocationGroup: String?
    public var quantity: String
    public var currency: String
    public var baseCurrency: String
    public var cost: String
    public var costBase: String
    /// Nil until the asset has a price.
    public var price: HoldingPrice?
    /// quantity × price, in the quote currency, and at `rate` in the base currency.
    public var value: String?
    public var valueBase: String?
    /// Base per quote currency today (the active profile's latest rate).
    public var rate: String?
    public var unrealised: UnrealisedGain?
    /// Why a figure is missing or may be off ("no price for AAPL", "price 3 h old").
    public var warnings: [String]
    /// With `includeLots`.
    public var lots: [LotRecord]?

    public init(accountId: Int64, assetId: Int64, symbol: String, assetType: AssetType, allocationGroup: String?, quantity: String, currency: String, baseCurrency: String, cost: String, costBase: String, price: HoldingPrice?, value: String?, valueBase: String?, rate: String?, unrealised: UnrealisedGain?, warnings: [String], lots: [LotRecord]?) {
        self.accountId = accountId
        self.assetId = assetId
        self.symbol = symbol
        self.assetType = assetType
        self.allocationGroup = allocationGroup
        self.quantity = quantity
        self.currency = currency
        self.baseCurrency = baseCurrency
        self.cost = cost
        self.costBase = costBase
        self.price = price
        self.value = value
        self.valueBase = valueBase
        self.rate = rate
        self.unrealised = unrealised
        self.warnings = warnings
        self.lots = lots
    }
}

/// Sums per base currency (accounts may count in different ones).
public struct InvestTotal: Codable, Hashable, Sendable {
    public var currency: String
    public var costBase: String
    public var valueBase: String
    public var gain: String
    public var priceEffect: String
    public var currencyEffect: String
    public init(currency: String, costBase: String, valueBase: String, gain: String, priceEffect: String, currencyEffect: String) {
        self.currency = currency
        self.costBase = costBase
        self.valueBase = valueBase
        self.gain = gain
        self.priceEffect = priceEffect
        self.currencyEffect = currencyEffect
    }
}

/// `invest.holdings`
public struct HoldingsRequest: ReadRequest, Hashable {
    public typealias Reply = HoldingsReply
    public static let messageType: MessageType = "invest.holdings"
    public var accountId: Int64?
    /// Each holding lists its open lots.
    public var includeLots: Bool?
    /// At most this many holdings (1...10000); every holding when absent.
    public var limit: Int?
    /// The previous page's `next`: the holdings after it.
    public var after: String?
    public init(accountId: Int64? = nil, includeLots: Bool? = nil, limit: Int? = nil, after: String? = nil) {
        self.accountId = accountId
        self.includeLots = includeLots
        self.limit = limit
        self.after = after
    }
}

/// `invest.holdings.ok`: a page of holdings when `limit` is given; the totals always cover every
/// holding.
public struct HoldingsReply: Codable, Hashable, Sendable {
    public var holdings: [HoldingRecord]
    /// Only holdings with a value count in the totals; over every holding, not only this page's.
    public var totals: [InvestTotal]
    /// Holdings in all (all pages).
    public var holdingCount: Int
    /// Present when more holdings follow: send it as `after` for the next page.
    public var next: String?
    public init(holdings: [HoldingRecord], totals: [InvestTotal], holdingCount: Int, next: String?) {
        self.holdings = holdings
        self.totals = totals
        self.holdingCount = holdingCount
        self.next = next
    }
}

/// One lot's share of a sale.
public struct RealisedLot: Codable, Hashable, Sendable {
    public var lotId: Int64
    public var acquired: String
    public var realised: RealisedGain
    public init(lotId: Int64, acquired: String, realised: RealisedGain) {
        self.lotId = lotId
        self.acquired = acquired
        self.realised = realised
    }
}

/// A sale with its gain and each lot's part of it.
public struct SaleGain: Codable, Hashable, Sendable {
    public var tradeId: Int64
    public var accountId: Int64
    public var assetId: Int64
    public var symbol: String
    public var date: String
    public var baseCurrency: String
    public var method: CostBasisMethod
    public var realised: RealisedGain
    public var lots: [RealisedLot]
    public init(tradeId: Int64, accountId: Int64, assetId: Int64, symbol: String, date: String, baseCurrency: String, method: CostBasisMethod, realised: RealisedGain, lots: [RealisedLot]) {
        self.tradeId = tradeId
        self.accountId = accountId
        self.assetId = assetId
        self.symbol = symbol
        self.date = date
        self.baseCurrency = baseCurrency
        self.method = method
        self.realised = realised
        self.lots = lots
    }
}

/// Realised gains and income of a base currency over the period.
public struct GainsTotal: Codable, Hashable, Sendable {
    public var currency: String
    public var proceedsBase: String
    public var costBase: String
    public var gain: String
    public var priceEffect: String
    public var currencyEffect: String
    /// Dividends, interest and distributions.
    public var income: String
    public init(currency: String, proceedsBase: String, costBase: String, gain: String, priceEffect: String, currencyEffect: String, income: String) {
        self.currency = currency
        self.proceedsBase = proceedsBase
        self.costBase = costBase
        self.gain = gain
        self.priceEffect = priceEffect
        self.currencyEffect = currencyEffect
        self.income = income
    }
}

/// `invest.gains`: realised gains per sale and per lot, by date then trade id, a page at a time
/// when `limit` is given; the totals always cover the whole period.
public struct GainsRequest: ReadRequest, Hashable {
    public typealias Reply = GainsReply
    public static let messageType: MessageType = "invest.gains"
    /// Sales dated in this calendar year; all years when absent.
    public var year: Int?
    public var accountId: Int64?
    public var assetId: Int64?
    /// At most this many sales (1...10000); every sale when absent.
    public var limit: Int?
    /// The previous page's `next`: the sales after it.
    public var after: String?
    public init(year: Int? = nil, accountId: Int64? = nil, assetId: Int64? = nil, limit: Int? = nil, after: String? = nil) {
        self.year = year
        self.accountId = accountId
        self.assetId = assetId
        self.limit = limit
        self.after = after
    }
}

public struct GainsReply: Codable, Hashable, Sendable {
    public var sales: [SaleGain]
    /// Over every sale of the period, not only this page's.
    public var totals: [GainsTotal]
    /// Sales in the period (all pages).
    public var saleCount: Int
    /// Present when more sales follow: send it as `after` for the next page.
    public var next: String?
    public init(sales: [SaleGain], totals: [GainsTotal], saleCount: Int, next: String?) {
        self.sales = sales
        self.totals = totals
        self.saleCount = saleCount
        self.next = next
    }
}
