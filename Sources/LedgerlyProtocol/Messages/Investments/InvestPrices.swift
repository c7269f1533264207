/// How a price was obtained.
public enum PriceConfidence: String, Codable, CaseIterable, Sendable {
    /// From a provider, by the rates service.
    case fetched
    /// Typed by the user (`invest.price.set`) or dropped in the price drop folder.
    case manual
}

/// One price snapshot of an asset.
public struct PriceSnapshotRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var assetId: Int64
    public var symbol: String
    /// Per unit, decimal string, > 0.
    public var price: String
    public var currency: String
    /// "alphavantage", "coingecko", "finnhub", "manual", "drop-folder".
    public var source: String
    /// When the price was true (the provider's time, else when it was fetched).
    public var asOf: String
    public var confidence: PriceConfidence
    /// Older than its asset type's limit now.
    public var stale: Bool
    public var recordedAt: String

    public init(id: Int64, assetId: Int64, symbol: String, price: String, currency: String, source: String, asOf: String, confidence: PriceConfidence, stale: Bool, recordedAt: String) {
        self.id = id
        self.assetId = assetId
        self.symbol = symbol
        self.price = price
        self.currency = currency
        self.source = source
        self.asOf = asOf
        self.confidence = confidence
        self.stale = stale
        self.recordedAt = recordedAt
    }
}

/// `invest.price.set`: a manual price.
public struct PriceSetRequest: WriteRequest, Hashable {
    public typealias Reply = PriceSnapshotRecord
    public static let messageType: MessageType = "invest.price.set"
    public var assetId: Int64
    public var price: String
    /// Must be the asset's quote currency; defaults to it.
    public var currency: String?
    /// Defaults to now; not in the future.
    public var asOf: String?
    public init(assetId: Int64, price: String, currency: String? = nil, asOf: String? = nil) {
        self.assetId = assetId
        self.price = price
        self.currency = currency
        self.asOf = asOf
    }
}

/// One price from a provider or the drop folder.
public struct PriceSnapshotInput: Codable, Hashable, Sendable {
    public var assetId: Int64
    public var price: String
    public var currency: String
    public var source: String
    public var asOf: String
    public var confidence: PriceConfidence
    public init(assetId: Int64, price: String, currency: String, source: String, asOf: String, confidence: PriceConfidence) {
        self.assetId = assetId
        self.price = price
        self.currency = currency
        self.source = source
        self.asOf = asOf
        self.confidence = confidence
    }
}

/// `invest.price.record`: a batch of prices from the rates service, all or nothing. A snapshot
/// the store already has (same asset, source and time) is a duplicate and skipped, so a batch
/// sent again after a crash stores nothing twice.
public struct PriceRecordRequest: WriteRequest, Hashable {
    public typealias Reply = PriceRecordReply
    public static let messageType: MessageType = "invest.price.record"
    public var snapshots: [PriceSnapshotInput]
    public init(snapshots: [PriceSnapshotInput]) { self.snapshots = snapshots }
}

public struct PriceRecordReply: Codable, Hashable, Sendable {
    public var stored: Int
    public var duplicates: Int
    public init(stored: Int, duplicates: Int) {
        self.stored = stored
        self.duplicates = duplicates
    }
}

/// `invest.price.list`: each asset's latest price (assets without one are left out).
public struct PriceListRequest: ReadRequest, Hashable {
    public typealias Reply = PriceListReply
    public static let messageType: MessageType = "invest.price.list"
    public init() {}
}

public struct PriceListReply: Codable, Hashable, Sendable {
    public var prices: [PriceSnapshotRecord]
    public init(prices: [PriceSnapshotRecord]) { self.prices = prices }
}

/// `invest.price.history`: an asset's snapshots, oldest first.
public struct PriceHistoryRequest: ReadRequest, Hashable {
    public typealias Reply = PriceListReply
    public static let messageType: MessageType = "invest.price.history"
    public var assetId: Int64
    /// A timestamp; defaults to 72 hours ago.
    public var since: String?
    public init(assetId: Int64, since: String? = nil) {
        self.assetId = assetId
        self.since = since
    }
}

/// `invest.price.purge`: keeps every snapshot of the 72 hours before `now` and, before that, the
/// last snapshot of each asset and UTC day (its close); deletes the rest. Sent nightly by the
/// rates service; safe to repeat.
public struct PricePurgeRequest: WriteRequest, Hashable {
    public typealias Reply = PricePurgeReply
    public static let messageType: MessageType = "invest.price.purge"
    /// Defaults to the store's clock.
    public var now: String?
    public init(now: String? = nil) { self.now = now }
}

public struct PricePurgeReply: Codable, Hashable, Sendable {
    public var removed: Int
    public var kept: Int
    public init(removed: Int, kept: Int) {
        self.removed = removed
        self.kept = kept
    }
}

/// An asset the rates service should price: held in some account or on the watchlist.
public struct PricedAsset: Codable, Hashable, Sendable {
    public var assetId: Int64
    public var symbol: String
    public var assetType: AssetType
    public var quoteCurrency: String
    public var provider: PriceProvider
    public var providerId: String?
    /// Its latest snapshot's time, if any.
    public var latestAsOf: String?
    /// Minutes after which its price is stale (by asset type, from the settings).
    public var staleMinutes: Int
    public init(assetId: Int64, symbol: String, assetType: AssetType, quoteCurrency: String, provider: PriceProvider, providerId: String?, latestAsOf: String?, staleMinutes: Int) {
        self.assetId = assetId
        self.symbol = symbol
        self.assetType = assetType
        self.quoteCurrency = quoteCurrency
        self.provider = provider
        self.providerId = providerId
        self.latestAsOf = latestAsOf
        self.staleMinutes = staleMinutes
    }
}

/// `invest.price.wanted`: what the rates service fetches, and nothing else (held or watched).
public struct PriceWantedRequest: ReadRequest, Hashable {
    public typealias Reply = PriceWantedReply
    public static let messageType: MessageType = "invest.price.wanted"
    public init() {}
}

public struct PriceWantedReply: Codable, Hashable, Sendable {
    public var assets: [PricedAsset]
    public init(assets: [PricedAsset]) { self.assets = assets }
}

/// The data of `invest.prices.updated`.
public struct PricesUpdatedSummary: Codable, Hashable, Sendable {
    public var stored: Int
    public var assetIds: [Int64]
    public init(stored: Int, assetIds: [Int64]) {
        self.stored = stored
        self.assetIds = assetIds
    }
}
