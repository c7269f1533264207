/// An allocation target as exported.
public struct AllocationTargetRecord: Codable, Hashable, Sendable {
    public var dimension: AllocationDimension
    public var key: String
    /// Percent, two decimals.
    public var percent: String
    public init(dimension: AllocationDimension, key: String, percent: String) {
        self.dimension = dimension
        self.key = key
        self.percent = percent
    }
}

/// Everything of the investments a JSON export carries (its `investments` member).
public struct InvestmentRestore: Codable, Hashable, Sendable {
    public var accounts: [InvestAccountRecord]
    public var assets: [AssetRecord]
    /// Oldest first, with the figures they were recorded with; a sale's `realised` is not read
    /// (it is derived again).
    public var trades: [TradeRecord]
    public var prices: [PriceSnapshotRecord]
    public var targets: [AllocationTargetRecord]

    public init(accounts: [InvestAccountRecord], assets: [AssetRecord], trades: [TradeRecord], prices: [PriceSnapshotRecord], targets: [AllocationTargetRecord]) {
        self.accounts = accounts
        self.assets = assets
        self.trades = trades
        self.prices = prices
        self.targets = targets
    }

    public var isEmpty: Bool { accounts.isEmpty && assets.isEmpty && trades.isEmpty && prices.isEmpty && targets.isEmpty }
}

/// `invest.restore`: the last step of restoring a JSON export (after `ledger.restore.finish`):
/// accounts, assets and trades under their ids and with their recorded figures, the trades'
/// cash linked again to the transactions restored under their ids, every asset's lots and gains
/// derived again, the price history and the allocation targets. One SQL transaction; refused
/// (`conflict`) when the ledger already has investment accounts, assets or trades.
public struct InvestRestoreRequest: WriteRequest, Hashable {
    public typealias Reply = InvestRestoreReply
    public static let messageType: MessageType = "invest.restore"
    public var investments: InvestmentRestore
    public init(investments: InvestmentRestore) { self.investments = investments }
}

public struct InvestRestoreReply: Codable, Hashable, Sendable {
    public var accounts: Int
    public var assets: Int
    public var trades: Int
    public var prices: Int
    public var targets: Int
    public init(accounts: Int, assets: Int, trades: Int, prices: Int, targets: Int) {
        self.accounts = accounts
        self.assets = assets
        self.trades = trades
        self.prices = prices
        self.targets = targets
    }
}
