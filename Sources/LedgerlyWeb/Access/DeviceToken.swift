import Crypto

/// A paired device's token (D594): 256 random bits in its cookie; the home keeps only the
/// SHA-256 of the cookie's text, as 64 lowercase hex digits, which names the device's file. A
/// token is random, so one unsalted hash is enough: there is no dictionary to try against it.
public enum DeviceToken {
    public static func make() -> String { RandomToken.make() }

    /// The key a token is stored under; nil unless `token` has a token's shape.
    public static func key(for token: String?) -> String? {
        guard let token, RandomToken.isWellFormed(token) else { return nil }
        return hex(SHA256.hash(data: Array(token.utf8)))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
