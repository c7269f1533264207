/// A request frame's JSON as sent, for what reads it without its type: the envelope's fields
/// before the route is known, the unknown-field check and the body's hash (`RequestDecoding`,
/// `CanonicalHash`).
///
/// Why not `JSONSerialization`: its tree of bridged `[String: Any]` took about 6 KB per
/// `tx.import` item, two batches of which were most of the store's memory at its peak during a
/// load, and making and walking it was a third of decoding a batch (D343). This tree keeps what
/// the checks read and nothing else: an object's members in the order sent, strings exactly.
///
/// Read only from frames `StrictJSON` has accepted, by `JSONByteReader` (the export pages'
/// reader), so no grammar error needs explaining here.
public enum SentJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer's decimal text, as `NSNumber` prints it (`-0` is `0`): the hash has always
    /// mixed that text. A number with a fraction or an exponent, which no accepted request
    /// holds (`StrictJSON` reports it), keeps the text sent.
    case number(String)
    case string(String)
    case array([SentJSON])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: SentJSON
    }

    /// Reads a frame `StrictJSON.check` accepted; nil when it is not (a caller that skipped the
    /// check gets no answer rather than a wrong one).
    public init?(parsing bytes: UnsafeBufferPointer<UInt8>) {
        var reader = JSONByteReader(bytes)
        guard let value = try? reader.sentJSON(), (try? reader.end()) != nil else { return nil }
        self = value
    }

    /// The member `key` of an object (the first, though accepted frames have no duplicates).
    public subscript(key: String) -> SentJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as JSON text, strings escaped so that any JSON reader gets them back exactly
    /// (U+FEFF too, which some readers drop at a string's start when it is raw).
    public var jsonText: String {
        var text = ""
        write(into: &text)
        return text
    }

    private func write(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let digits): text += digits
        case .string(let value): Self.quote(value, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                Self.quote(member.key, into: &text)
                text += ":"
                member.value.write(into: &text)
            }
            text += "}"
        }
    }

    private static func quote(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{FEFF}": text += "\\uFEFF"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
