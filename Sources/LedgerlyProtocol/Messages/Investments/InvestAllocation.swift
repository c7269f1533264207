/// What an allocation target is set on.
public enum AllocationDimension: String, Codable, CaseIterable, Sendable {
    /// An asset's `allocationGroup` ("core", "speculative").
    case group
    /// An asset's `assetType` ("stock", "crypto").
    case assetType
}

/// `invest.allocation.set`: the target share of the portfolio for one group or asset type; a nil
/// `percent` removes the target. Targets of a dimension may add up to at most 100.
public struct AllocationSetRequest: WriteRequest, Hashable {
    public typealias Reply = AllocationReply
    public static let messageType: MessageType = "invest.allocation.set"
    public var dimension: AllocationDimension
    public var key: String
    /// Decimal string, 0...100, at most 2 decimal places.
    public var percent: String?
    public init(dimension: AllocationDimension, key: String, percent: String?) {
        self.dimension = dimension
        self.key = key
        self.percent = percent
    }
}

/// One group's (or type's) target and where the portfolio is.
public struct AllocationLine: Codable, Hashable, Sendable {
    public var key: String
    /// Percent, two decimals; nil for a key with holdings but no target.
    public var target: String?
    /// Its share of the portfolio's value in the ledger's base currency, percent, two decimals.
    public var actual: String
    /// actual − target, percentage points; nil without a target.
    public var drift: String?
    public var value: String
    /// |drift| is past the threshold.
    public var drifting: Bool
    public init(key: String, target: String?, actual: String, drift: String?, value: String, drifting: Bool) {
        self.key = key
        self.target = target
        self.actual = actual
        self.drift = drift
        self.value = value
        self.drifting = drifting
    }
}

public struct AllocationReply: Codable, Hashable, Sendable {
    public var dimension: AllocationDimension
    /// The ledger's base currency: holdings are converted to it at the latest rates.
    public var currency: String
    public var total: String
    /// Percentage points (the `allocationDriftPoints` setting).
    public var threshold: String
    public var lines: [AllocationLine]
    /// Holdings left out (no price, or no rate to the base currency), with why.
    public var warnings: [String]
    public init(dimension: AllocationDimension, currency: String, total: String, threshold: String, lines: [AllocationLine], warnings: [String]) {
        self.dimension = dimension
        self.currency = currency
        self.total = total
        self.threshold = threshold
        self.lines = lines
        self.warnings = warnings
    }
}

/// `invest.allocation.show`
public struct AllocationShowRequest: ReadRequest, Hashable {
    public typealias Reply = AllocationReply
    public static let messageType: MessageType = "invest.allocation.show"
    /// Defaults to `group`.
    public var dimension: AllocationDimension?
    public init(dimension: AllocationDimension? = nil) { self.dimension = dimension }
}

/// `invest.allocation.check`: sent by the alerts service on its schedule and after trades and
/// prices change. For every target whose |drift| is past the threshold and was not at the last
/// check, a new drift episode starts and one `allocation.drift` alert is raised in the same
/// write; a target back within the threshold ends its episode. So an episode raises one alert
/// whatever restarts or repeated checks happen.
public struct AllocationCheckRequest: WriteRequest, Hashable {
    public typealias Reply = AllocationCheckReply
    public static let messageType: MessageType = "invest.allocation.check"
    public init() {}
}

public struct AllocationCheckReply: Codable, Hashable, Sendable {
    /// Alerts raised by this check.
    public var raised: [AlertRecord]
    /// Targets past the threshold now ("group:core").
    public var drifting: [String]
    public init(raised: [AlertRecord], drifting: [String]) {
        self.raised = raised
        self.drifting = drifting
    }
}
