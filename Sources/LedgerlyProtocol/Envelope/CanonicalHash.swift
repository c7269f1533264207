import Foundation

/// A hash of a parsed JSON value that does not depend on key order or spacing: the store keeps
/// it with each idempotency key to tell a retry (same body) from a key reused for another request.
/// FNV-1a, 64 bits, members of an object combined by addition so no keys need sorting: a guard
/// against client bugs, not a security measure.
public enum CanonicalHash {
    /// Marks hashes made this way, so a store can tell them from those of earlier versions.
    public static let prefix = "c2:"

    public static func of(_ value: Any) -> String {
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

    private static func mix(_ text: String, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    private static func mix(_ tag: UInt8, into hash: UInt64) -> UInt64 {
        (hash ^ UInt64(tag)) &* prime
    }

    private static func mix(_ value: UInt64, into hash: UInt64) -> UInt64 {
        var hash = hash
        for shift in stride(from: 0, to: 64, by: 8) { hash = mix(UInt8(truncatingIfNeeded: value >> UInt64(shift)), into: hash) }
        return hash
    }

    /// Whether a parsed JSON value is null, by its dynamic type. `value is NSNull` would be the
    /// same answer at a far higher price: testing a Swift dictionary, array or string against a
    /// class bridges it (the whole subtree) to Foundation first, and that was most of what hashing a
    /// `tx.import` batch cost (docs/performance.md, "Import and load").
    static func isNull(_ value: Any) -> Bool {
        type(of: value) == NSNull.self
    }

    private static func hash(_ json: Any, seed: UInt64) -> UInt64 {
        switch json {
        case let object as [String: Any]:
            var members: UInt64 = 0
            // A null member is an absent one, as the typed body reads it (and as the re-encoded
            // hash of earlier versions had it): a client may send either on a retry.
            for (key, value) in object where !isNull(value) {
                members &+= hash(value, seed: mix(UInt8(ascii: ":"), into: mix(key, into: offsetBasis)))
            }
            return mix(members, into: mix(UInt8(ascii: "{"), into: seed))
        case let array as [Any]:
            var hash = mix(UInt8(ascii: "["), into: seed)
            for element in array { hash = self.hash(element, seed: mix(UInt8(ascii: ","), into: hash)) }
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
