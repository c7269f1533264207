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
