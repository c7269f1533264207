/// Refuses JSON object keys a type does not know.
///
/// `Codable` ignores unknown keys, which for a hand-written mapping file means a typo
/// (`"thousandSeparator"`, `"catgory"`) is silently dropped and the import quietly does the
/// wrong thing. Naming the key, and the keys that exist, turns that into a one-line fix.
enum StrictKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, known: [String], what: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let knownSet = Set(known)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !knownSet.contains(key.stringValue) {
            let list = known.map { "\"\($0)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "unknown key \"\(key.stringValue)\" in \(what) (known keys: \(list))"
            ))
        }
    }
}
