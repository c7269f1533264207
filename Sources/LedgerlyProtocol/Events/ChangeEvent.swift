/// One change-log entry, as published on the store's event socket and returned by `events.since`.
///
/// On the PUB socket it follows a topic frame equal to `type`, so subscribers can filter by prefix
/// (`tx.` for transactions). `seq` is strictly increasing within an `epoch`.
public struct ChangeEvent: Codable, Hashable, Sendable {
    public var seq: Int64
    public var epoch: String
    public var type: String
    public var ts: String
    /// "wallet", "category", "tag", "transaction", "settings".
    public var entity: String
    public var id: String
    /// The entity after the change (for a deletion, what was deleted).
    public var data: JSONValue

    public init(seq: Int64, epoch: String, type: String, ts: String, entity: String, id: String, data: JSONValue) {
        self.seq = seq
        self.epoch = epoch
        self.type = type
        self.ts = ts
        self.entity = entity
        self.id = id
        self.data = data
    }
}

/// Published on the event socket every second (topic `heartbeat`), outside the change log, so a
/// subscriber notices a lost tail of events (its cursor is behind `lastSeq`) or a dead store
/// (no heartbeat), and then catches up with `events.since`.
public struct Heartbeat: Codable, Hashable, Sendable {
    public static let topic = "heartbeat"
    public var type: String
    public var epoch: String
    public var lastSeq: Int64
    public var ts: String

    public init(epoch: String, lastSeq: Int64, ts: String) {
        self.type = Heartbeat.topic
        self.epoch = epoch
        self.lastSeq = lastSeq
        self.ts = ts
    }
}

/// Every change-event type the store publishes.
public enum ChangeEventType: String, CaseIterable, Sendable {
    case settingsUpdated = "settings.updated"
    case setupCompleted = "setup.completed"
    case walletCreated = "wallet.created"
    case walletUpdated = "wallet.updated"
    case walletArchived = "wallet.archived"
    case categoryCreated = "category.created"
    case categoryUpdated = "category.updated"
    case tagCreated = "tag.created"
    case txCreated = "tx.created"
    case txUpdated = "tx.updated"
    case txDeleted = "tx.deleted"

    /// The entity kind the event is about.
    public var entity: String {
        switch self {
        case .settingsUpdated, .setupCompleted: "settings"
        case .walletCreated, .walletUpdated, .walletArchived: "wallet"
        case .categoryCreated, .categoryUpdated: "category"
        case .tagCreated: "tag"
        case .txCreated, .txUpdated, .txDeleted: "transaction"
        }
    }

    /// The Swift type of the event's `data`.
    public var dataType: any (Codable & Sendable).Type {
        switch self {
        case .settingsUpdated, .setupCompleted: SettingsRecord.self
        case .walletCreated, .walletUpdated, .walletArchived: WalletRecord.self
        case .categoryCreated, .categoryUpdated: CategoryRecord.self
        case .tagCreated: TagRecord.self
        case .txCreated, .txUpdated, .txDeleted: TransactionRecord.self
        }
    }
}

/// `events.since`: the change log after `after`, oldest first, at most `limit` (1...1000, default 500).
public struct EventsSinceRequest: RequestBody, Hashable {
    public typealias Reply = EventsSinceReply
    public static let messageType = MessageType.eventsSince
    public var after: Int64
    public var limit: Int?
    public init(after: Int64, limit: Int? = nil) {
        self.after = after
        self.limit = limit
    }
}

public struct EventsSinceReply: Codable, Hashable, Sendable {
    public var epoch: String
    /// The newest seq in the log, so a reader knows whether to ask again.
    public var lastSeq: Int64
    public var events: [ChangeEvent]
    public init(epoch: String, lastSeq: Int64, events: [ChangeEvent]) {
        self.epoch = epoch
        self.lastSeq = lastSeq
        self.events = events
    }
}
