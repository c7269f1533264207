/// A month's net worth as it was taken at the month's end; it never changes afterwards.
public struct NetWorthSnapshotRecord: Codable, Hashable, Sendable {
    /// YYYY-MM, and its last day, whose end the figures hold at.
    public var month: String
    public var date: String
    public var baseCurrency: String
    public var figures: NetWorthFigures
    public var complete: Bool
    public var warnings: [String]
    /// What was left out of the figures for want of a price or a rate, named (as
    /// `NetWorthReport.notValued`, read from the items as taken). The store always sends it;
    /// absent only in events recorded before it existed.
    public var notValued: [String]?
    /// When the store took it (after the month ended; a month missed while the services were
    /// down is taken later, from history, as of its end).
    public var takenAt: String
    /// The breakdown as taken; only when asked for (`includeItems`) and in `networth.snapshot.take`.
    public var items: [NetWorthItem]?
    /// With `recompute`: the figures computed now from today's data for the same moment, and
    /// whether they differ from the stored ones. The stored snapshot is not touched.
    public var recomputed: NetWorthFigures?
    public var differs: Bool?

    public init(month: String, date: String, baseCurrency: String, figures: NetWorthFigures, complete: Bool, warnings: [String], takenAt: String,
                items: [NetWorthItem]? = nil, recomputed: NetWorthFigures? = nil, differs: Bool? = nil, notValued: [String]? = nil) {
        self.month = month
        self.date = date
        self.baseCurrency = baseCurrency
        self.figures = figures
        self.complete = complete
        self.warnings = warnings
        self.takenAt = takenAt
        self.items = items
        self.recomputed = recomputed
        self.differs = differs
        self.notValued = notValued
    }
}

/// `networth.snapshot.take`: takes the month's snapshot if it has none (sent by `ledgerly-alerts`
/// with the key `networth:<YYYY-MM>`); a month is taken once whatever the key.
public struct NetWorthSnapshotTakeRequest: WriteRequest, Hashable {
    public typealias Reply = NetWorthSnapshotTakeReply
    public static let messageType: MessageType = "networth.snapshot.take"
    /// YYYY-MM, a month that has ended.
    public var month: String
    public init(month: String) { self.month = month }
}

public struct NetWorthSnapshotTakeReply: Codable, Hashable, Sendable {
    public var snapshot: NetWorthSnapshotRecord
    /// False when the month already had its snapshot (returned as it was).
    public var created: Bool
    public init(snapshot: NetWorthSnapshotRecord, created: Bool) {
        self.snapshot = snapshot
        self.created = created
    }
}

/// `networth.snapshot.list`: the stored snapshots in a range of months, oldest first.
public struct NetWorthSnapshotListRequest: ReadRequest, Hashable {
    public typealias Reply = NetWorthSnapshotListReply
    public static let messageType: MessageType = "networth.snapshot.list"
    /// YYYY-MM, inclusive; default: all.
    public var from: String?
    public var to: String?
    /// Adds each snapshot's figures computed from today's data (slower: one net worth per month).
    public var recompute: Bool?
    public var includeItems: Bool?

    public init(from: String? = nil, to: String? = nil, recompute: Bool? = nil, includeItems: Bool? = nil) {
        self.from = from
        self.to = to
        self.recompute = recompute
        self.includeItems = includeItems
    }
}

public struct NetWorthSnapshotListReply: Codable, Hashable, Sendable {
    public var snapshots: [NetWorthSnapshotRecord]
    /// Ended months in the range from the ledger's first month that have no snapshot yet.
    public var missing: [String]
    public init(snapshots: [NetWorthSnapshotRecord], missing: [String]) {
        self.snapshots = snapshots
        self.missing = missing
    }
}
