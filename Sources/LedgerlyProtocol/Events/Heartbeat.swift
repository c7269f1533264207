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
