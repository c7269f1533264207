/// One synced thing's state as one device last knew it, the unit devices exchange through the
/// hub (sealed there: the hub sees only its clock and device).
///
/// Why whole state with a clock per field, not the change alone: applying it is then a merge
/// (each field keeps the value with the greater clock), so messages may arrive twice, late or
/// after a newer one and every device still ends with the same fields (docs/sync.md).
public struct SyncMessage: Codable, Hashable, Sendable {
    /// `settings`, `wallet`, `category`, `transaction` or `transfer` (both legs of one).
    public var entity: String
    /// The thing's global id: the same on every device (local ids differ).
    public var gid: String
    /// The message's own clock reading (HybridLogicalClock's text form), unique per device:
    /// the hub keeps one row per (device, clock).
    public var hlc: String
    public var device: String
    /// The local id it has on the device that wrote the message: a device that does not know
    /// the thing yet gives it the same id when that id is free (so a joined device's ids match).
    public var localId: Int64?
    /// A tombstone: the thing was deleted (a delete is final; see docs/sync.md).
    public var deleted: Bool
    /// The thing's fields, other synced things named by their `gid`. Empty on a tombstone.
    public var fields: [String: JSONValue]
    /// Each field's clock: the reading of the change that last set it.
    public var clocks: [String: String]
    /// The sending device's own count of the messages it sent (1, 2, 3, … per device and ledger),
    /// inside the seal, so a receiver sees a message the hub dropped as a gap in the numbers
    /// (issue 44, finding 3; docs/sync.md, "Gaps"). Absent from a device older than that; a
    /// re-sent message keeps its number.
    public var seq: Int64?

    public init(entity: String, gid: String, hlc: String, device: String, localId: Int64?, deleted: Bool, fields: [String: JSONValue], clocks: [String: String],
                seq: Int64? = nil) {
        self.seq = seq
        self.entity = entity
        self.gid = gid
        self.hlc = hlc
        self.device = device
        self.localId = localId
        self.deleted = deleted
        self.fields = fields
        self.clocks = clocks
    }
}

/// A message waiting in the store's outbox to be pushed.
public struct SyncOutboxEntry: Codable, Hashable, Sendable {
    /// The outbox position; `sync.pushed` removes the entries up to one.
    public var id: Int64
    public var message: SyncMessage
    public init(id: Int64, message: SyncMessage) {
        self.id = id
        self.message = message
    }
}

/// A message pulled from the hub, with its place in the hub's order.
public struct SyncIncoming: Codable, Hashable, Sendable {
    public var hubSeq: Int64
    public var message: SyncMessage
    public init(hubSeq: Int64, message: SyncMessage) {
        self.hubSeq = hubSeq
        self.message = message
    }
}
