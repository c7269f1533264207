/// What kind of thing an asset is. `crypto` is priced by CoinGecko and goes stale after
/// `staleCryptoMinutes`; the others go stale after `staleEquityMinutes`.
public enum AssetType: String, Codable, CaseIterable, Sendable {
    case stock, etf, fund, bond, crypto, other
}

/// Where an asset's price comes from.
public enum PriceProvider: String, Codable, CaseIterable, Sendable {
    /// Alpha Vantage (equities, ETFs, funds).
    case alphavantage
    /// CoinGecko (crypto; `providerId` is the coin id, e.g. "bitcoin").
    case coingecko
    /// Finnhub (equities; used only when the rates service's configuration enables it).
    case finnhub
    /// Never fetched: prices come from `invest.price.set` and the price drop folder.
    case manual
}

/// An asset (a share, a fund, a coin), as the store returns it.
public struct AssetRecord: Codable, Hashable, Sendable {
    public var id: Int64
    /// Unique, case-insensitive ("AAPL", "BTC").
    public var symbol: String
    public var assetType: AssetType
    public var name: String?
    public var exchange: String?
    /// The currency its prices are quoted and its trades are made in.
    public var quoteCurrency: String
    public var provider: PriceProvider
    /// The provider's own id when it differs from the symbol (a CoinGecko coin id).
    public var providerId: String?
    /// A user-defined group for allocation targets ("core", "speculative").
    public var allocationGroup: String?
    /// On the watchlist: priced even when no account holds it.
    public var watched: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, symbol: String, assetType: AssetType, name: String?, exchange: String?, quoteCurrency: String, provider: PriceProvider, providerId: String?, allocationGroup: String?, watched: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.symbol = symbol
        self.assetType = assetType
        self.name = name
        self.exchange = exchange
        self.quoteCurrency = quoteCurrency
        self.provider = provider
        self.providerId = providerId
        self.allocationGroup = allocationGroup
        self.watched = watched
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `invest.asset.create`
public struct AssetCreateRequest: WriteRequest, Hashable {
    public typealias Reply = AssetRecord
    public static let messageType: MessageType = "invest.asset.create"
    public var symbol: String
    public var assetType: AssetType
    public var name: String?
    public var exchange: String?
    public var quoteCurrency: String
    /// Defaults to `coingecko` for crypto, `alphavantage` otherwise.
    public var provider: PriceProvider?
    public var providerId: String?
    public var allocationGroup: String?
    public var watched: Bool?

    public init(symbol: String, assetType: AssetType, name: String? = nil, exchange: String? = nil, quoteCurrency: String, provider: PriceProvider? = nil, providerId: String? = nil, allocationGroup: String? = nil, watched: Bool? = nil) {
        self.symbol = symbol
        self.assetType = assetType
        self.name = name
        self.exchange = exchange
        self.quoteCurrency = quoteCurrency
        self.provider = provider
        self.providerId = providerId
        self.allocationGroup = allocationGroup
        self.watched = watched
    }
}

/// `invest.asset.list`
public struct AssetListRequest: ReadRequest, Hashable {
    public typealias Reply = AssetListReply
    public static let messageType: MessageType = "invest.asset.list"
    public init() {}
}

public struct AssetListReply: Codable, Hashable, Sendable {
    public var assets: [AssetRecord]
    public init(assets: [AssetRecord]) { self.assets = assets }
}

/// `invest.asset.update`: changes only the fields that are present; an empty string clears an
/// optional text. The quote currency cannot change once the asset has trades.
public struct AssetUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = AssetRecord
    public static let messageType: MessageType = "invest.asset.update"
    public var id: Int64
    public var symbol: String?
    public var assetType: AssetType?
    public var name: String?
    public var exchange: String?
    public var quoteCurrency: String?
    public var provider: PriceProvider?
    public var providerId: String?
    public var allocationGroup: String?
    /// `ledgerly invest watch add|remove`.
    public var watched: Bool?

    public init(id: Int64, symbol: String? = nil, assetType: AssetType? = nil, name: String? = nil, exchange: String? = nil, quoteCurrency: String? = nil, provider: PriceProvider? = nil, providerId: String? = nil, allocationGroup: String? = nil, watched: Bool? = nil) {
        self.id = id
        self.symbol = symbol
        self.assetType = assetType
        self.name = name
        self.exchange = exchange
        self.quoteCurrency = quoteCurrency
        self.provider = provider
        self.providerId = providerId
        self.allocationGroup = allocationGroup
        self.watched = watched
    }
}
