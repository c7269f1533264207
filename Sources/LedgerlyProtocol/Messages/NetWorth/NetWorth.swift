/// The figures of net worth at a moment, in the base currency (decimal strings). Each is a sum
/// over the breakdown's counted items (docs/networth.md): `netWorth = Σ baseValue`,
/// `totalAssets` the positive ones, `totalLiabilities` the negative ones negated,
/// `core = Σ corePart`, `tangible = Σ tangiblePart`, `volatile = Σ volatilePart`.
public struct NetWorthFigures: Codable, Hashable, Sendable {
    public var totalAssets: String
    public var totalLiabilities: String
    public var netWorth: String
    /// Net worth without volatile assets and holdings in speculative allocation groups.
    public var core: String
    /// Cash and tangible assets, less liabilities.
    public var tangible: String
    /// The value of volatile assets and speculative holdings.
    public var volatile: String

    public init(totalAssets: String, totalLiabilities: String, netWorth: String, core: String, tangible: String, volatile: String) {
        self.totalAssets = totalAssets
        self.totalLiabilities = totalLiabilities
        self.netWorth = netWorth
        self.core = core
        self.tangible = tangible
        self.volatile = volatile
    }
}

/// What a breakdown line is.
public enum NetWorthItemKind: String, Codable, CaseIterable, Sendable {
    case wallet, investmentAccount, asset, liability
}

/// One wallet, investment account, manual asset or liability in a net-worth breakdown.
public struct NetWorthItem: Codable, Hashable, Sendable {
    public var kind: NetWorthItemKind
    public var id: Int64
    public var name: String
    /// The item's own currency and its amount there at the moment (a wallet's balance, an
    /// asset's value, a liability's balance, positive); nil for an investment account, whose
    /// holdings are in several currencies.
    public var currency: String?
    public var amount: String?
    /// Its signed part of net worth in the base currency (a liability or an overdrawn wallet
    /// negative); nil when it cannot be valued (see `warnings`): it is then left out.
    public var baseValue: String?
    /// Its parts of core, tangible and volatile (zero when it is not in them).
    public var corePart: String?
    public var tangiblePart: String?
    public var volatilePart: String?
    /// The rate used: units of the base currency per unit of `currency`, and when it was
    /// quoted; nil in the base currency and for investment accounts.
    public var rate: String?
    public var rateAsOf: String?
    /// Whether it adds to the figures: false when the item says it is not counted
    /// (`includeInNetWorth`: it is listed with its value and adds nothing) and when it is not
    /// valued (`baseValue` null: never counted, at no rate and as no zero).
    public var counted: Bool
    public var archived: Bool
    /// Missing or stale rates and prices, said once each.
    public var warnings: [String]
    /// What of an item that would count is left out of the figures for want of a price or a
    /// rate: its own name when it is not valued at all; for an investment account valued in
    /// part, "NAME: SYMBOL" for each holding without a value (its `baseValue` is then the sum of
    /// the others). Absent when nothing is left out (D410).
    public var notValued: [String]?

    public init(kind: NetWorthItemKind, id: Int64, name: String, currency: String?, amount: String?, baseValue: String?, corePart: String?, tangiblePart: String?,
                volatilePart: String?, rate: String?, rateAsOf: String?, counted: Bool, archived: Bool, warnings: [String], notValued: [String]? = nil) {
        self.kind = kind
        self.id = id
        self.name = name
        self.currency = currency
        self.amount = amount
        self.baseValue = baseValue
        self.corePart = corePart
        self.tangiblePart = tangiblePart
        self.volatilePart = volatilePart
        self.rate = rate
        self.rateAsOf = rateAsOf
        self.counted = counted
        self.archived = archived
        self.warnings = warnings
        self.notValued = notValued
    }
}

/// `networth.get`: net worth at the end of a day (today: now), from history.
public struct NetWorthRequest: ReadRequest, Hashable {
    public typealias Reply = NetWorthReport
    public static let messageType: MessageType = "networth.get"
    /// YYYY-MM-DD, not in the future; defaults to today.
    public var at: String?
    public init(at: String? = nil) { self.at = at }
}

public struct NetWorthReport: Codable, Hashable, Sendable {
    /// The day and the moment the figures hold at (the end of the day, UTC; now for today).
    public var date: String
    public var asOf: String
    public var baseCurrency: String
    public var figures: NetWorthFigures
    /// True when every item that would count was valued in whole (`notValued` is empty).
    public var complete: Bool
    public var items: [NetWorthItem]
    /// Every item warning, prefixed with the item's name.
    public var warnings: [String]
    /// What is left out of the figures for want of a price or a rate, named: the items' own
    /// `notValued`, in breakdown order (D410).
    public var notValued: [String]

    public init(date: String, asOf: String, baseCurrency: String, figures: NetWorthFigures, complete: Bool, items: [NetWorthItem], warnings: [String], notValued: [String] = []) {
        self.date = date
        self.asOf = asOf
        self.baseCurrency = baseCurrency
        self.figures = figures
        self.complete = complete
        self.items = items
        self.warnings = warnings
        self.notValued = notValued
    }
}
