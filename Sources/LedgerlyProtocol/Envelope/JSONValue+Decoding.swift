import FoundationEssentials

extension JSONValue {
    /// The value read as a protocol type: how a subscriber reads an event's `data`.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try MessageCoding.decoder().decode(Value.self, from: MessageCoding.encode(self))
    }
}
