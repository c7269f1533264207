import Foundation

/// Turns seed frames into fuzz inputs: byte-level damage (flips, cuts, repeats, foreign bytes)
/// and JSON-aware changes that aim at the protocol's rules (strings that must be refused or
/// stored exactly, numbers at the edges, duplicate members, other encodings, deep nesting).
struct FrameMutator {
    /// Values that have broken, or could break, a parser or a handler.
    static let interestingStrings: [String] = [
        "", " ", "\\u0000", "a\\u0000b", "\\ufeffEUR", "\\ud800", "\\udfff", "\\u202e", "\\u200b",
        "2026-02-30", "2026-02-29", "2024-02-29", "2026-13-01", "0000-01-01", "9999-12-31", "2026-11-21T25:00:00Z",
        "2026-11-21T10:61:00Z", "2026-11-21T23:59:60Z", "2026-11-21T12:00:00.000Z", "2026-11-21T12:00:00+14:00",
        "1e3", "-0", "0", "0.00", "00.1", "1.", ".5", "+5", "1,000.00", "99999999999999999999", "0.000000001",
        "1000000000", "1000000000.0000000001", "12.345", "-12.34", "NaN", "Infinity", "TRL", "XAU", "BTC", "eur",
        "EURO", "ABCDEFGHIJKLMNOPQRSTU", String(repeating: "x", count: 101), String(repeating: "é", count: 10_001),
        "Food/Groceries", "a,b", "line\\nbreak", "tab\\t", "\\\"quoted\\\"", "<script>", "'; DROP TABLE transactions; --",
    ]
    static let interestingNumbers: [String] = [
        "0", "-1", "1", "2", "3", "100", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "1.0", "1e2", "1E400", "-0", "0.5", "18446744073709551616", "true", "false", "null", "[]", "{}", "\"1\"",
    ]

    var random: FuzzRandom

    mutating func mutate(_ seed: Data, other: Data) -> Data {
        var bytes = [UInt8](seed)
        let rounds = 1 + random.below(3)
        for _ in 0..<rounds {
            bytes = random.chance(60) ? jsonMutation(bytes) : byteMutation(bytes, other: [UInt8](other))
        }
        return Data(bytes)
    }

    private mutating func byteMutation(_ bytes: [UInt8], other: [UInt8]) -> [UInt8] {
        var bytes = bytes
        guard !bytes.isEmpty else { return [UInt8](other.prefix(64)) }
        switch random.below(8) {
        case 0: bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8))
        case 1: bytes[random.below(bytes.count)] = UInt8(random.below(256))
        case 2:
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(16)))
        case 3:
            let start = random.below(bytes.count)
            let piece = bytes[start..<min(bytes.count, start + 1 + random.below(32))]
            bytes.insert(contentsOf: piece, at: random.below(bytes.count))
        case 4: bytes.insert(random.pick([0x00, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x22, 0x5C, 0xC3, 0xFF, 0xEF, 0x0A]), at: random.below(bytes.count + 1))
        case 5:
            // Splice: the start of this frame with the end of another.
            let cut = random.below(bytes.count)
            let otherCut = other.isEmpty ? 0 : random.below(other.count)
            bytes = Array(bytes[..<cut]) + Array(other[otherCut...])
        case 6: bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
        default:
            // Another encoding of the same text, or a byte order mark in front.
            let text = String(decoding: bytes, as: UTF8.self)
            switch random.below(3) {
            case 0: bytes = [0xEF, 0xBB, 0xBF] + bytes
            case 1: bytes = [UInt8](text.data(using: .utf16) ?? Data())
            default: bytes = [UInt8](text.data(using: .utf32LittleEndian) ?? Data())
            }
        }
        return bytes
    }

    /// Edits at the positions of JSON strings, numbers and members found by a light scan.
    private mutating func jsonMutation(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let strings = text.ranges(of: /"(?:[^"\\]|\\.)*"/)
        let numbers = text.matches(of: /[:\[,]\s?(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)/).map { $0.output.1.startIndex..<$0.output.1.endIndex }
        var result = text
        switch random.below(7) {
        case 0 where !strings.isEmpty:
            result.replaceSubrange(random.pick(strings), with: "\"\(random.pick(Self.interestingStrings))\"")
        case 1 where !numbers.isEmpty:
            result.replaceSubrange(random.pick(numbers), with: random.pick(Self.interestingNumbers))
        case 2 where !strings.isEmpty:
            // A string value where a number or object was, or the other way round.
            result.replaceSubrange(random.pick(strings), with: random.pick(Self.interestingNumbers))
        case 3:
            // A duplicated member right after the opening brace.
            if let brace = result.firstIndex(of: "{"), let member = strings.first {
                let name = String(result[member])
                result.insert(contentsOf: "\(name): \(random.pick(Self.interestingNumbers)), ", at: result.index(after: brace))
            }
        case 4:
            let depth = random.pick([2, 63, 64, 65, 200, 5_000])
            if let range = numbers.first ?? strings.first {
                result.replaceSubrange(range, with: String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth))
            }
        case 5:
            // A trailing comma, or a comment, or a second document.
            result = random.pick([result.replacingOccurrences(of: "}", with: ",}"), result + " {}", "/*x*/" + result, result.replacingOccurrences(of: "\"", with: "'")])
        default:
            // A new member in the body: an unknown field must be refused, not dropped.
            if let range = result.range(of: "\"body\": {") ?? result.range(of: "\"body\":{") {
                result.insert(contentsOf: "\"\(random.pick(["notse", "amount", "id", "extra"]))\": \"\(random.pick(Self.interestingStrings))\", ", at: range.upperBound)
            }
        }
        return [UInt8](result.utf8)
    }
}
