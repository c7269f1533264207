/// 256 random bits as 64 lowercase hex digits, from the system's cryptographic generator
/// (`SystemRandomNumberGenerator` reads getrandom(2) on Linux).
public enum RandomToken {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `text` has a token's shape: exactly 64 lowercase hex digits. Checked before a token
    /// names a file, so a request can never name a path.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
