/// What an alert is about.
public enum AlertKind: String, Codable, CaseIterable, Sendable {
    /// A budget's spending crossed one of its thresholds in a month.
    case budgetThreshold = "budget.threshold"
    /// A saving goal reached 25, 50, 75 or 100 %.
    case goalProgress = "goal.progress"
    /// A saving goal fell behind the pace its deadline needs.
    case goalBehind = "goal.behind"
    /// A recurring transaction is due (remind mode) or was posted (auto-post mode).
    case recurringDue = "recurring.due"
    /// A recurring occurrence could not be posted (its wallet archived, say); the template was
    /// paused so that it does not fail again and again unseen.
    case recurringBlocked = "recurring.blocked"
    /// A rate a wallet needs went stale.
    case rateStale = "rate.stale"
    /// An allocation group or asset type drifted past the threshold from its target (once per
    /// drift episode).
    case allocationDrift = "allocation.drift"
}

/// One alert, as recorded in the store's alert log. `key` makes it unique: the same key is
/// raised once, whatever restarts, replays or races happen (`budget:7:2026-11:80`).
public struct AlertRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var kind: AlertKind
    public var key: String
    /// What it is about, for a human: "Groceries", "Holiday fund", "Rent".
    public var subject: String
    /// The sentence to show: "Groceries: 80 % of the November budget spent (160.00 of 200.00 EUR)".
    public var message: String
    /// The period it belongs to ("2026-11"), when it has one.
    public var period: String?
    /// The threshold crossed, in percent, when it has one.
    public var threshold: Int?
    /// Figures behind the message (budget id, spent, limit …), for hooks and webhooks.
    public var data: JSONValue?
    public var raisedAt: String

    public init(id: Int64, kind: AlertKind, key: String, subject: String, message: String, period: String?, threshold: Int?, data: JSONValue?, raisedAt: String) {
        self.id = id
        self.kind = kind
        self.key = key
        self.subject = subject
        self.message = message
        self.period = period
        self.threshold = threshold
        self.data = data
        self.raisedAt = raisedAt
    }
}

/// `alert.raise` (sent by `ledgerly-alerts`): records an alert unless its key was raised before.
/// A new alert is published as an `alert.raised` event; a repeated key changes nothing and
/// answers the alert recorded first, with `duplicate: true`.
public struct AlertRaiseRequest: WriteRequest, Hashable {
    public typealias Reply = AlertRaiseReply
    public static let messageType: MessageType = "alert.raise"
    public var kind: AlertKind
    public var key: String
    public var subject: String
    public var message: String
    public var period: String?
    public var threshold: Int?
    public var data: JSONValue?

    public init(kind: AlertKind, key: String, subject: String, message: String, period: String? = nil, threshold: Int? = nil, data: JSONValue? = nil) {
        self.kind = kind
        self.key = key
        self.subject = subject
        self.message = message
        self.period = period
        self.threshold = threshold
        self.data = data
    }
}

public struct AlertRaiseReply: Codable, Hashable, Sendable {
    public var alert: AlertRecord
    /// True when the key had been raised before: nothing was recorded or published.
    public var duplicate: Bool
    public init(alert: AlertRecord, duplicate: Bool) {
        self.alert = alert
        self.duplicate = duplicate
    }
}

/// `alert.list`: the alert log, oldest first; `afterId` or `since` for the ones missed.
public struct AlertListRequest: ReadRequest, Hashable {
    public typealias Reply = AlertListReply
    public static let messageType: MessageType = "alert.list"
    /// Only alerts with a greater id.
    public var afterId: Int64?
    /// Only alerts raised at or after this moment (ISO 8601 or YYYY-MM-DD).
    public var since: String?
    /// 1...10000, default 1000: the newest that many of the ones selected.
    public var limit: Int?

    public init(afterId: Int64? = nil, since: String? = nil, limit: Int? = nil) {
        self.afterId = afterId
        self.since = since
        self.limit = limit
    }
}

public struct AlertListReply: Codable, Hashable, Sendable {
    public var alerts: [AlertRecord]
    public init(alerts: [AlertRecord]) { self.alerts = alerts }
}
