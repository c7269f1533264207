/// `status`: answered by every service; `ledgerly status` asks each one.
public struct StatusRequest: ReadRequest, Hashable {
    public typealias Reply = StatusReply
    public static let messageType: MessageType = "status"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public init() {}
}

public struct StatusReply: Codable, Hashable, Sendable {
    /// "ledgerly-store", "ledgerly-rates" or "ledgerly-alerts".
    public var service: String
    public var version: String
    public var pid: Int32
    public var startedAt: String
    /// The store: the newest change-log seq. A subscriber: the last seq it has handled.
    public var lastSeq: Int64
    /// The store database's epoch (changes when the database is replaced); a subscriber's cursor epoch.
    public var epoch: String?
    /// Store only: whether `ledgerly setup` has been completed.
    public var setupCompleted: Bool?

    public init(service: String, version: String, pid: Int32, startedAt: String, lastSeq: Int64, epoch: String?, setupCompleted: Bool? = nil) {
        self.service = service
        self.version = version
        self.pid = pid
        self.startedAt = startedAt
        self.lastSeq = lastSeq
        self.epoch = epoch
        self.setupCompleted = setupCompleted
    }
}
