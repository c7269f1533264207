/// A second, independent reading of the protocol's JSON rules (RFC 8259 in UTF-8, no byte order
/// mark, no duplicate member names, no U+0000 in a string), written apart from the services' own
/// checker, so the fuzzer can tell an accepted frame that should have been refused.
enum ReferenceJSON {
    indirect enum Value: Equatable {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case number(String)
        case bool(Bool)
        case null

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            case (.array(let a), .array(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.bool(let a), .bool(let b)): a == b
            case (.null, .null): true
            default: false
            }
        }

        subscript(_ name: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == name }?.1
        }
    }

    /// The frame's value, or nil when it breaks any rule above.
    static func parse(_ bytes: [UInt8]) -> Value? {
        guard String(validating: bytes, as: UTF8.self) != nil, !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return nil }
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == bytes.count ? value : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) -> Value? {
            guard depth < 10_000 else { return nil }
            skipSpace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ value: Value) -> Value? {
            let expected = [UInt8](word.utf8)
            guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else { return nil }
            position += expected.count
            return value
        }

        mutating func object(depth: Int) -> Value? {
            position += 1
            var members: [(String, Value)] = []
            var names = Set<String>()
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object([]) }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let name = string(), names.insert(name).inserted else { return nil }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members.append((name, member))
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                return nil
            }
        }

        mutating func array(depth: Int) -> Value? {
            position += 1
            var items: [Value] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array([]) }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                return nil
            }
        }

        mutating func number() -> Value? {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { return nil }
            if bytes[position] == UInt8(ascii: "0") { position += 1 } else { while position < bytes.count, isDigit(bytes[position]) { position += 1 } }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { return nil }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard position < bytes.count, isDigit(bytes[position]) else { return nil }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        /// A string's text, or nil when it is not valid JSON or holds U+0000.
        mutating func string() -> String? {
            position += 1
            var scalars = String.UnicodeScalarView()
            var pendingHigh: UInt32?
            var raw: [UInt8] = []
            func flush() -> Bool {
                guard !raw.isEmpty else { return true }
                guard let text = String(validating: raw, as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll()
                return true
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    guard pendingHigh == nil, flush() else { return nil }
                    let text = String(scalars)
                    return text.unicodeScalars.contains("\u{0}") ? nil : text
                }
                guard byte >= 0x20 else { return nil }
                if byte != UInt8(ascii: "\\") {
                    guard pendingHigh == nil else { return nil }
                    raw.append(byte)
                    position += 1
                    continue
                }
                guard flush(), position + 1 < bytes.count else { return nil }
                let escape = bytes[position + 1]
                position += 2
                let simple: [UInt8: Unicode.Scalar] = [0x22: "\"", 0x5C: "\\", 0x2F: "/", 0x62: "\u{8}", 0x66: "\u{c}", 0x6E: "\n", 0x72: "\r", 0x74: "\t"]
                if let scalar = simple[escape] {
                    guard pendingHigh == nil else { return nil }
                    scalars.append(scalar)
                    continue
                }
                guard escape == UInt8(ascii: "u"), position + 4 <= bytes.count,
                      let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                      String(decoding: bytes[position..<position + 4], as: UTF8.self).allSatisfy(\.isHexDigit)
                else { return nil }
                position += 4
                if let high = pendingHigh {
                    guard (0xDC00...0xDFFF).contains(code), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) else { return nil }
                    scalars.append(scalar)
                    pendingHigh = nil
                } else if (0xD800...0xDBFF).contains(code) {
                    pendingHigh = code
                } else {
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    scalars.append(scalar)
                }
            }
            return nil
        }
    }
}
