@testable import LedgerlyAlerts
import Testing

/// SHA3-256 and its HMAC against Python's `hashlib.sha3_256` and `hmac` (the values below were
/// printed by them), across the 136-byte block boundary.
@Suite struct SHA3Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    @Test(arguments: [
        ("", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
        ("abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
        (String(repeating: "x", count: 135), "c150125edc74b56fb5cbfdd024fabe20ea5a99bd3c97305bbf7cb55885c106fe"),
        (String(repeating: "x", count: 136), "5bc276bac9c582508b8fa9b3949e7ed9b6e584ee4d2925b29a426b9931ba1486"),
        (String(repeating: "x", count: 137), "2f25a6351abe05e289a0a3e65fef42db7d5fc314936bdee4f6d54d04fb20a609"),
        (String(repeating: "a", count: 1000), "8f3934e6f7a15698fe0f396b95d8c4440929a8fa6eae140171c068b4549fbf81"),
    ])
    func digest(message: String, expected: String) {
        #expect(Self.hex(SHA3_256.hash(Array(message.utf8))) == expected)
    }

    @Test func hmacWithShortAndLongKeys() {
        #expect(Self.hex(SHA3_256.hmac(key: Array("s3cret".utf8), message: Array(#"1700000000.{"a":1}"#.utf8)))
            == "70143edd2dd3cbac3d7141d7097632452236024e97720094d788012c433420ed")
        #expect(Self.hex(SHA3_256.hmac(key: Array(String(repeating: "k", count: 200).utf8), message: Array("msg".utf8)))
            == "4beeb04d637f2720b7472094d5aec0e1a6d78e52b0e4efc9870196be1593f4f2")
    }
}
