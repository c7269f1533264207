/// What a trade does to an account's lots.
public enum TradeKind: String, Codable, CaseIterable, Sendable {
    case buy, sell
    /// Cash income linked to an asset; no lots change.
    case dividend, interest, distribution
    /// A stock split (or reverse split) of the asset, in every account: quantities times the
    /// ratio, cost basis kept.
    case split
    /// Lots moved from `accountId` to `toAccountId`, cost basis and acquisition dates kept.
    case transfer
}

/// How a trade's linked cash transaction moved money: `walletId` and the amount in the wallet's
/// currency.
public struct TradeCash: Codable, Hashable, Sendable {
    public var walletId: Int64
    public var transactionId: Int64
    /// Decimal string in the wallet's currency.
    public var amount: String
    public var currency: String

    public init(walletId: Int64, transactionId: Int64, amount: String, currency: String) {
        self.walletId = walletId
        self.transactionId = transactionId
        self.amount = amount
        self.currency = currency
    }
}

/// What a sale realised, in the account's base currency (docs/investments.md): `gain` is
/// `proceedsBase − costBase`, `currencyEffect` is what the sold cost gained from the rate moving
/// (`round(cost × rate) − costBase`), `priceEffect` the rest, so the two always add up to `gain`.
public struct RealisedGain: Codable, Hashable, Sendable {
    /// Decimal string: units sold.
    public var quantity: String
    /// In the asset's quote currency: the cost of what was sold (price times quantity plus the
    /// buy fees, prorated) and what it fetched net of the sale fee.
    public var cost: String
    public var proceeds: String
    /// In the account's base currency.
    public var costBase: String
    public var proceedsBase: String
    public var gain: String
    public var priceEffect: String
    public var currencyEffect: String

    public init(quantity: String, cost: String, proceeds: String, costBase: String, proceedsBase: String, gain: String, priceEffect: String, currencyEffect: String) {
        self.quantity = quantity
        self.cost = cost
        self.proceeds = proceeds
        self.costBase = costBase
        self.proceedsBase = proceedsBase
        self.gain = gain
        self.priceEffect = priceEffect
        self.currencyEffect = currencyEffect
    }
}

/// A trade as the store returns it. Money is in decimal strings: `price`, `fee` and `amount` in
/// the asset's quote currency, `amountBase` in the account's base currency.
public struct TradeRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var kind: TradeKind
    /// Nil for a split (it applies to the asset in every account).
    public var accountId: Int64?
    public var assetId: Int64
    public var symbol: String
    /// "YYYY-MM-DD".
    public var date: String
    /// Units bought, sold or transferred.
    public var quantity: String?
    /// Per unit, in the quote currency.
    public var price: String?
    public var fee: String?
    /// Quantity × price rounded to the quote currency's minor unit (buy, sell), or the income
    /// (dividend, interest, distribution).
    public var amount: String?
    public var currency: String
    /// Units of the account's base currency per unit of `currency` on the trade's date: the
    /// exchange-rate snapshot the trade was recorded with.
    public var rate: String?
    /// For a buy: amount plus fee; for a sale: amount less fee; for income: the amount; in the
    /// account's base currency at `rate`.
    public var amountBase: String?
    public var baseCurrency: String?
    /// A split's ratio, "new:old" ("2:1").
    public var ratio: String?
    /// A transfer's receiving account.
    public var toAccountId: Int64?
    /// The lots a sale or transfer named (specific identification), if it named any.
    public var lots: [LotSelection]?
    public var cash: TradeCash?
    /// A sale's realised gain, as recomputed after every change to the trades before it.
    public var realised: RealisedGain?
    /// Present only on a trade the lots leave out: a history merged by sync holds it, but the
    /// trades before it leave too little to take (two devices each sold the whole holding while
    /// apart). It moves no units and realises nothing until the lots can take it (the trade it
    /// clashes with deleted, or units bought before it).
    public var unapplied: String?
    public var notes: String?
    public var createdAt: String

    public init(id: Int64, kind: TradeKind, accountId: Int64?, assetId: Int64, symbol: String, date: String, quantity: String?, price: String?, fee: String?, amount: String?, currency: String, rate: String?, amountBase: String?, baseCurrency: String?, ratio: String?, toAccountId: Int64?, lots: [LotSelection]?, cash: TradeCash?, realised: RealisedGain?, unapplied: String? = nil, notes: String?, createdAt: String) {
        self.id = id
        self.kind = kind
        self.accountId = accountId
        self.assetId = assetId
        self.symbol = symbol
        self.date = date
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.amountBase = amountBase
        self.baseCurrency = baseCurrency
        self.ratio = ratio
        self.toAccountId = toAccountId
        self.lots = lots
        self.cash = cash
        self.realised = realised
        self.unapplied = unapplied
        self.notes = notes
        self.createdAt = createdAt
    }
}

/// A lot named by a sale or transfer, and how much of it to take.
public struct LotSelection: Codable, Hashable, Sendable {
    /// The id of the buy (or transfer) that opened the lot: `invest holdings --lots` lists them.
    public var lotId: Int64
    public var quantity: String
    public init(lotId: Int64, quantity: String) {
        self.lotId = lotId
        self.quantity = quantity
    }
}

/// `invest.trade.buy`: opens a lot. With `walletId` the cost is paid from that wallet by a linked
/// expense transaction (not spending: reports count it like a transfer).
public struct TradeBuyRequest: WriteRequest, Hashable {
    public typealias Reply = TradeRecord
    public static let messageType: MessageType = "invest.trade.buy"
    public var accountId: Int64
    public var assetId: Int64
    /// Exact decimal, > 0, at most 18 decimal places.
    public var quantity: String
    /// Per unit, in the asset's quote currency, > 0.
    public var price: String
    /// In the quote currency; defaults to 0.
    public var fee: String?
    public var date: String
    /// Account base per quote currency; defaults to the active profile's rate on `date`
    /// (1 when the currencies are the same).
    public var rate: String?
    public var walletId: Int64?
    /// What left the wallet, in its currency; defaults to amount plus fee when the wallet is in
    /// the quote currency, and is required otherwise.
    public var cashAmount: String?
    public var notes: String?

    public init(accountId: Int64, assetId: Int64, quantity: String, price: String, fee: String? = nil, date: String, rate: String? = nil, walletId: Int64? = nil, cashAmount: String? = nil, notes: String? = nil) {
        self.accountId = accountId
        self.assetId = assetId
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.date = date
        self.rate = rate
        self.walletId = walletId
        self.cashAmount = cashAmount
        self.notes = notes
    }
}

/// `invest.trade.sell`: consumes lots by the account's method, or the ones named in `lots`.
/// With `walletId` the proceeds go to that wallet by a linked income transaction (not income:
/// reports count it like a transfer).
public struct TradeSellRequest: WriteRequest, Hashable {
    public typealias Reply = TradeRecord
    public static let messageType: MessageType = "invest.trade.sell"
    public var accountId: Int64
    public var assetId: Int64
    public var quantity: String
    public var price: String
    public var fee: String?
    public var date: String
    public var rate: String?
    public var walletId: Int64?
    /// What reached the wallet, in its currency; defaults to amount less fee when the wallet is
    /// in the quote currency, and is required otherwise.
    public var cashAmount: String?
    /// Specific identification: these lots and quantities, which must add up to `quantity`.
    public var lots: [LotSelection]?
    public var notes: String?

    public init(accountId: Int64, assetId: Int64, quantity: String, price: String, fee: String? = nil, date: String, rate: String? = nil, walletId: Int64? = nil, cashAmount: String? = nil, lots: [LotSelection]? = nil, notes: String? = nil) {
        self.accountId = accountId
        self.assetId = assetId
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.date = date
        self.rate = rate
        self.walletId = walletId
        self.cashAmount = cashAmount
        self.lots = lots
        self.notes = notes
    }
}

/// `invest.trade.income`: a dividend, interest or distribution paid into a wallet, linked to the
/// asset (an income transaction in the wallet, counted as income).
public struct TradeIncomeRequest: WriteRequest, Hashable {
    public typealias Reply = TradeRecord
    public static let messageType: MessageType = "invest.trade.income"
    /// `dividend`, `interest` or `distribution`.
    public var kind: TradeKind
    public var accountId: Int64
    public var assetId: Int64
    /// In the wallet's currency, > 0.
    public var amount: String
    public var date: String
    public var walletId: Int64
    /// Account base per wallet currency; defaults to the active profile's rate on `date`.
    public var rate: String?
    public var categoryId: Int64?
    public var notes: String?

    public init(kind: TradeKind, accountId: Int64, assetId: Int64, amount: String, date: String, walletId: Int64, rate: String? = nil, categoryId: Int64? = nil, notes: String? = nil) {
        self.kind = kind
        self.accountId = accountId
        self.assetId = assetId
        self.amount = amount
        self.date = date
        self.walletId = walletId
        self.rate = rate
        self.categoryId = categoryId
        self.notes = notes
    }
}

/// `invest.trade.split`: the asset's lots in every account, from `date` on, hold `ratio` times as
/// many units at the same total cost ("2:1" doubles, "1:10" is a reverse split). A quantity that
/// would need more than 18 decimal places is refused, naming the lot.
public struct TradeSplitRequest: WriteRequest, Hashable {
    public typealias Reply = TradeRecord
    public static let messageType: MessageType = "invest.trade.split"
    public var assetId: Int64
    /// "new:old", two positive integers.
    public var ratio: String
    public var date: String
    public var notes: String?

    public init(assetId: Int64, ratio: String, date: String, notes: String? = nil) {
        self.assetId = assetId
        self.ratio = ratio
        self.date = date
        self.notes = notes
    }
}

/// `invest.trade.transfer`: moves units between two accounts with the same base currency; the
/// lots keep their cost and acquisition dates. Which lots move follows the sending account's
/// method, or `lots`.
public struct TradeTransferRequest: WriteRequest, Hashable {
    public typealias Reply = TradeRecord
    public static let messageType: MessageType = "invest.trade.transfer"
    public var fromAccountId: Int64
    public var toAccountId: Int64
    public var assetId: Int64
    public var quantity: String
    public var date: String
    public var lots: [LotSelection]?
    public var notes: String?

    public init(fromAccountId: Int64, toAccountId: Int64, assetId: Int64, quantity: String, date: String, lots: [LotSelection]? = nil, notes: String? = nil) {
        self.fromAccountId = fromAccountId
        self.toAccountId = toAccountId
        self.assetId = assetId
        self.quantity = quantity
        self.date = date
        self.lots = lots
        self.notes = notes
    }
}

/// `invest.trade.delete`: removes a mistaken trade and its linked cash transaction; every later
/// trade of the asset is replayed in the same write, so no lot or gain is left stale. Refused
/// (`conflict`, naming the trade) when a later sale or transfer would no longer have the units.
public struct TradeDeleteRequest: WriteRequest, Hashable {
    public typealias Reply = TradeDeleteReply
    public static let messageType: MessageType = "invest.trade.delete"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public struct TradeDeleteReply: Codable, Hashable, Sendable {
    public var deleted: TradeRecord
    /// Sales whose realised gain changed, as they are now.
    public var recomputed: [TradeRecord]
    public init(deleted: TradeRecord, recomputed: [TradeRecord]) {
        self.deleted = deleted
        self.recomputed = recomputed
    }
}

/// `invest.trade.list`: oldest first.
public struct TradeListRequest: ReadRequest, Hashable {
    public typealias Reply = TradeListReply
    public static let messageType: MessageType = "invest.trade.list"
    public var accountId: Int64?
    public var assetId: Int64?
    /// "YYYY-MM-DD" bounds, inclusive.
    public var from: String?
    public var to: String?

    public init(accountId: Int64? = nil, assetId: Int64? = nil, from: String? = nil, to: String? = nil) {
        self.accountId = accountId
        self.assetId = assetId
        self.from = from
        self.to = to
    }
}

public struct TradeListReply: Codable, Hashable, Sendable {
    public var trades: [TradeRecord]
    public init(trades: [TradeRecord]) { self.trades = trades }
}

/// One line of a broker's trade file, as `invest.trade.import` takes it: a buy, sell or income.
public struct TradeImportLine: Codable, Hashable, Sendable {
    /// The line number in the file, for errors ("line 14: …").
    public var line: Int
    public var kind: TradeKind
    public var symbol: String
    public var date: String
    public var quantity: String?
    public var price: String?
    public var fee: String?
    /// Income amount (dividend, interest, distribution).
    public var amount: String?
    public var rate: String?
    public var notes: String?

    public init(line: Int, kind: TradeKind, symbol: String, date: String, quantity: String? = nil, price: String? = nil, fee: String? = nil, amount: String? = nil, rate: String? = nil, notes: String? = nil) {
        self.line = line
        self.kind = kind
        self.symbol = symbol
        self.date = date
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.amount = amount
        self.rate = rate
        self.notes = notes
    }
}

/// `invest.trade.import`: a broker's trades into one account, all or nothing. A line equal to a
/// trade already in the account before this request (kind, asset, date, quantity, price, fee, or
/// amount for income) is a duplicate and skipped (two equal lines in one file are two fills); any refused line refuses the whole file, naming the line
/// (`body.lines[3].price`). `dryRun` checks and counts without writing.
public struct TradeImportRequest: WriteRequest, Hashable {
    public typealias Reply = TradeImportReply
    public static let messageType: MessageType = "invest.trade.import"
    public var accountId: Int64
    /// Income lines are paid into this wallet; required when the file has any.
    public var walletId: Int64?
    public var lines: [TradeImportLine]
    public var dryRun: Bool?

    public init(accountId: Int64, walletId: Int64? = nil, lines: [TradeImportLine], dryRun: Bool? = nil) {
        self.accountId = accountId
        self.walletId = walletId
        self.lines = lines
        self.dryRun = dryRun
    }
}

public struct TradeImportReply: Codable, Hashable, Sendable {
    public var imported: Int
    /// Line numbers skipped as duplicates.
    public var duplicates: [Int]
    public var dryRun: Bool
    /// The trades written (empty on a dry run).
    public var tradeIds: [Int64]

    public init(imported: Int, duplicates: [Int], dryRun: Bool, tradeIds: [Int64]) {
        self.imported = imported
        self.duplicates = duplicates
        self.dryRun = dryRun
        self.tradeIds = tradeIds
    }
}
