import Foundation
@testable import LedgerlyProtocol
import LedgerlyTesting
import Testing

/// `SentJSON` replaced `JSONSerialization`'s tree for the checks that read a request without its
/// type (D343). The hashes of idempotency records stored before must not change, so the new hash
/// is compared with the old one, kept here as the oracle, on thousands of generated bodies.
@Suite struct SentJSONTests {
    static func read(_ text: String) -> SentJSON? {
        let data = Data(text.utf8)
        guard (try? StrictJSON.check(data)) != nil else { return nil }
        return data.withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) }
    }

    @Test func readsStringsExactlyAndIntegersAsNSNumberPrintsThem() throws {
        let value = try #require(Self.read("{\"a\":\"\u{FEFF}x\\n\\u00e9\\ud83d\\ude00\\/\",\"b\":-0,\"c\":[true,false,null,-9223372036854775808,18446744073709551615],\"d\":{}}"))
        #expect(value["a"] == .string("\u{FEFF}x\né😀/"))
        #expect(value["b"] == .number("0"))
        #expect(value["c"] == .array([.bool(true), .bool(false), .null, .number("-9223372036854775808"), .number("18446744073709551615")]))
        #expect(value["d"] == .object([]))
        #expect(value["e"] == nil)
    }

    @Test func jsonTextReadsBackTheSameValue() throws {
        let value = try #require(Self.read("{\"k\\\"\":\"\u{FEFF}\\u0001\\\\\",\"n\":[1,{\"x\":null}]}"))
        #expect(Self.read(value.jsonText) == value)
        #expect(value.jsonText.contains(#"\uFEFF"#))
    }

    @Test func theHashIsTheOneStoredBeforeOnGeneratedBodies() throws {
        var generator = SplitMix(seed: 16)
        for round in 0..<3_000 {
            let text = "{\"body\": \(Self.document(&generator, depth: 0))}"
            // Two spellings of one name (an escaped and a raw emoji) are a duplicate: refused by
            // `parse` before any hash.
            guard try StrictJSON.check(Data(text.utf8)).duplicate == nil else { continue }
            let sent = try #require(Self.read(text), "round \(round): \(text)")
            let escaped = text.replacingOccurrences(of: "\u{FEFF}", with: #"\uFEFF"#)
            let old = try JSONSerialization.jsonObject(with: Data(escaped.utf8), options: .fragmentsAllowed)
            #expect(CanonicalHash.of(sent) == CanonicalHash.prefix + String(Self.oldHash(old, seed: Self.offsetBasis), radix: 16), "round \(round): \(text)")
        }
    }

    @Test func keyOrderAndNullMembersDoNotChangeTheHash() throws {
        let one = try #require(Self.read(#"{"a":1,"b":[true,"x"],"c":null}"#))
        let two = try #require(Self.read(#"{ "b" : [true, "x"], "a" : 1 }"#))
        let other = try #require(Self.read(#"{"a":1,"b":["x",true]}"#))
        #expect(CanonicalHash.of(one) == CanonicalHash.of(two))
        #expect(CanonicalHash.of(one) != CanonicalHash.of(other))
    }

    // MARK: Generated bodies

    static let pieces = ["a", "amount", "Café", "\u{FEFF}", "😀", "\\n", "\\u0041", "\\ud83d\\ude00", "\\\"", "\\\\", "\\/", " ", "日本", "\\t"]

    static func string(_ generator: inout SplitMix) -> String {
        "\"" + (0..<generator.below(4)).map { _ in pieces[generator.below(pieces.count)] }.joined() + "\""
    }

    static func document(_ generator: inout SplitMix, depth: Int) -> String {
        switch depth >= 3 ? generator.below(5) : generator.below(7) {
        case 0: return string(&generator)
        case 1: return ["0", "-0", "7", "-12", "9223372036854775807", "-9223372036854775808", "250000"][generator.below(7)]
        case 2: return generator.below(2) == 0 ? "true" : "false"
        case 3: return "null"
        case 4: return string(&generator)
        case 5: return "[" + (0..<generator.below(4)).map { _ in document(&generator, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            var keys = Set<String>()
            for _ in 0..<generator.below(5) { keys.insert(string(&generator)) }
            return "{" + keys.sorted().map { "\($0): \(document(&generator, depth: depth + 1))" }.joined(separator: " ,") + "}"
        }
    }

    // MARK: The hash before D343, over JSONSerialization's tree

    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func mix(_ text: String, into hash: UInt64) -> UInt64 {
        text.utf8.reduce(hash) { ($0 ^ UInt64($1)) &* prime }
    }

    static func mix(_ tag: UInt8, into hash: UInt64) -> UInt64 { (hash ^ UInt64(tag)) &* prime }

    static func mix(_ value: UInt64, into hash: UInt64) -> UInt64 {
        stride(from: 0, to: 64, by: 8).reduce(hash) { mix(UInt8(truncatingIfNeeded: value >> UInt64($1)), into: $0) }
    }

    static func oldHash(_ json: Any, seed: UInt64) -> UInt64 {
        switch json {
        case let object as [String: Any]:
            var members: UInt64 = 0
            for (key, value) in object where type(of: value) != NSNull.self {
                members &+= oldHash(value, seed: mix(UInt8(ascii: ":"), into: mix(key, into: offsetBasis)))
            }
            return mix(members, into: mix(UInt8(ascii: "{"), into: seed))
        case let array as [Any]:
            var hash = mix(UInt8(ascii: "["), into: seed)
            for element in array { hash = oldHash(element, seed: mix(UInt8(ascii: ","), into: hash)) }
            return mix(UInt8(ascii: "]"), into: hash)
        case let text as String:
            return mix(text, into: mix(UInt8(ascii: "\""), into: seed))
        case is NSNull:
            return mix(UInt8(ascii: "n"), into: seed)
        case let number as NSNumber:
            return mix(number.stringValue, into: mix(UInt8(ascii: "#"), into: seed))
        default:
            return mix(String(describing: json), into: mix(UInt8(ascii: "?"), into: seed))
        }
    }
}

extension SplitMix {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
