import Foundation
import LedgerlyProtocol

/// A synced thing's fields as a JSON object: what `SyncMessage.fields` carries and
/// `sync_ids.fields` keeps. An absent key and a JSON null mean the same (no value).
enum SyncFields {
    typealias Object = [String: JSONValue]

    /// The fields of a Codable description, nulls dropped.
    static func object<T: Encodable>(_ value: T) throws -> Object {
        let decoded = try MessageCoding.decoder().decode(Object.self, from: MessageCoding.encode(value))
        return decoded.filter { $0.value != .null }
    }

    /// The Codable description a merged object stands for; a field of the wrong shape is
    /// refused with its name (a message from a newer or broken device).
    static func decode<T: Decodable>(_ type: T.Type, from object: Object, entity: String) throws -> T {
        do {
            return try MessageCoding.decoder().decode(T.self, from: MessageCoding.encode(object))
        } catch {
            throw LedgerError.invalid("a synced \(entity) has fields this version cannot read: \(error)", field: .body("messages"))
        }
    }

    /// The stored text of an object, keys sorted so equal objects are equal text.
    static func text(_ object: some Encodable) throws -> String {
        let encoder = MessageCoding.encoder()
        encoder.outputFormatting.insert(.sortedKeys)
        return String(decoding: try encoder.encode(object), as: UTF8.self)
    }

    static func object(text: String) throws -> Object {
        try MessageCoding.decoder().decode(Object.self, from: Data(text.utf8))
    }

    static func clocks(text: String) throws -> [String: String] {
        try MessageCoding.decoder().decode([String: String].self, from: Data(text.utf8))
    }

    /// The keys whose values differ (absent and null are the same).
    static func changedKeys(from old: Object, to new: Object) -> Set<String> {
        var changed = Set<String>()
        for key in Set(old.keys).union(new.keys) where (old[key] ?? .null) != (new[key] ?? .null) { changed.insert(key) }
        return changed
    }
}
