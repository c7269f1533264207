import FoundationEssentials

/// A change event ready to publish: its topic (the event type), its seq, and its JSON frame.
///
/// Built from the entity's already-encoded JSON (the change-log row's `data`), so a write
/// encodes each entity once: `ChangeEvent`, which holds `data` as a `JSONValue`, is for readers.
public struct EncodedChangeEvent: Sendable {
    public let seq: Int64
    public let type: String
    public let frame: Data

    private struct Fields: Encodable {
        let seq: Int64
        let epoch: String
        let type: String
        let ts: String
        let entity: String
        let id: String
    }

    /// With sorted keys `data` comes first, so the frame is `{"data":<json>,` then the other fields.
    public init(seq: Int64, epoch: String, type: String, ts: String, entity: String, id: String, dataJSON: Data) throws {
        let fields = try MessageCoding.encode(Fields(seq: seq, epoch: epoch, type: type, ts: ts, entity: entity, id: id))
        self.seq = seq
        self.type = type
        self.frame = Data(#"{"data":"#.utf8) + dataJSON + Data(",".utf8) + fields.dropFirst()
    }
}
