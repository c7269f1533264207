/// `events.since`: the change log after `after`, oldest first, at most `limit` (1...1000, default 500).
public struct EventsSinceRequest: ReadRequest, Hashable {
    public typealias Reply = EventsSinceReply
    public static let messageType: MessageType = "events.since"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
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
