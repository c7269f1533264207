/// Everything of net worth a JSON export carries (its `netWorth` member): manual assets with
/// every valuation, liabilities with every entry, and the monthly snapshots as they were taken.
public struct NetWorthRestore: Codable, Hashable, Sendable {
    /// Each with `valuations`.
    public var assets: [ManualAssetRecord]
    /// Each with `history`; a payment's `transactionId` names a transaction the export restored.
    public var liabilities: [LiabilityRecord]
    /// Each with `items`.
    public var snapshots: [NetWorthSnapshotRecord]

    public init(assets: [ManualAssetRecord], liabilities: [LiabilityRecord], snapshots: [NetWorthSnapshotRecord]) {
        self.assets = assets
        self.liabilities = liabilities
        self.snapshots = snapshots
    }

    public var isEmpty: Bool { assets.isEmpty && liabilities.isEmpty && snapshots.isEmpty }
}

/// `networth.restore`: a step of restoring a JSON export (after `ledger.restore.finish`): manual
/// assets and liabilities under their ids with their whole histories, payments linked again to
/// the transactions restored under their ids (and kept out of spending as they were), and the
/// snapshots exactly as stored. One SQL transaction; refused (`conflict`) when the ledger already
/// has manual assets, liabilities or snapshots.
public struct NetWorthRestoreRequest: WriteRequest, Hashable {
    public typealias Reply = NetWorthRestoreReply
    public static let messageType: MessageType = "networth.restore"
    public var netWorth: NetWorthRestore
    public init(netWorth: NetWorthRestore) { self.netWorth = netWorth }
}

public struct NetWorthRestoreReply: Codable, Hashable, Sendable {
    public var assets: Int
    public var liabilities: Int
    public var snapshots: Int
    public init(assets: Int, liabilities: Int, snapshots: Int) {
        self.assets = assets
        self.liabilities = liabilities
        self.snapshots = snapshots
    }
}
