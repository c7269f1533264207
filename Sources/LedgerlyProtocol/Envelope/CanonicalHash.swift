import FoundationEssentials

/// A hash of a parsed JSON value that does not depend on key order or spacing: the store keeps
/// it with each idempotency key to tell a retry (same body) from a key reused for another request.
/// FNV-1a, 64 bits, members of an object combined by addition so no keys need sorting: a guard
/// against client bugs, not a security measure.
public enum CanonicalHash {
    /// Marks hashes made this way, so a store can tell them from those of earlier versions.
    public static let prefix = "c2:"

    public static func of(_ value: SentJSON) -> String {
        prefix + String(hash(value, seed: offsetBasis), radix: 16)
    }

    /// The hash earlier versions stored: FNV-1a over the body re-encoded with sorted keys. A
    /// retry of a request first sent before an upgrade is still recognised by it.
    public static func legacy(_ canonicalBody: Data) -> String {
        var hash = offsetBasis
        for byte in canonicalBody {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return String(hash, radix: 16)
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// Over the string's UTF-8 in place: every string of every `tx.import` item goes through here,
    /// and stepping a `String.UTF8View` cost five times the loop over its buffer (D382).
    private static func mix(_ text: String, into hash: UInt64) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in
            var hash = hash
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* prime
            }
            return hash
        }
    }

    private static func mix(_ tag: UInt8, into hash: UInt64) -> UInt64 {
        (hash ^ UInt64(tag)) &* prime
    }

    private static func mix(_ value: UInt64, into hash: UInt64) -> UInt64 {
        var hash = hash
        for shift in stride(from: 0, to: 64, by: 8) { hash = mix(UInt8(truncatingIfNeeded: value >> UInt64(shift)), into: hash) }
        return hash
    }

    /// The hash `JSONSerialization`'s tree was hashed with before `SentJSON` (D343), value for
    /// value: a `true` or `false` was an `NSNumber` printed `1` or `0`, and an integer its decimal
    /// text, so the hashes of idempotency records already stored stay the same.
    private static func hash(_ json: SentJSON, seed: UInt64) -> UInt64 {
        switch json {
        case .object(let members):
            var sum: UInt64 = 0
            // A null member is an absent one, as the typed body reads it (and as the re-encoded
            // hash of earlier versions had it): a client may send either on a retry.
            for member in members where !member.value.isNull {
                sum &+= hash(member.value, seed: mix(UInt8(ascii: ":"), into: mix(member.key, into: offsetBasis)))
            }
            return mix(sum, into: mix(UInt8(ascii: "{"), into: seed))
        case .array(let elements):
            var hash = mix(UInt8(ascii: "["), into: seed)
            for element in elements { hash = self.hash(element, seed: mix(UInt8(ascii: ","), into: hash)) }
            return mix(UInt8(ascii: "]"), into: hash)
        case .string(let text):
            return mix(text, into: mix(UInt8(ascii: "\""), into: seed))
        case .null:
            return mix(UInt8(ascii: "n"), into: seed)
        case .bool(let value):
            return mix(value ? "1" : "0", into: mix(UInt8(ascii: "#"), into: seed))
        case .number(let digits):
            return mix(digits, into: mix(UInt8(ascii: "#"), into: seed))
        }
    }
}
