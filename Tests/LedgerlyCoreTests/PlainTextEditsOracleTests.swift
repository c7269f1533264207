import Foundation
import LedgerlyCore
import Testing

/// `PlainTextEdits` against the Foundation methods it replaced in the CLI's modules (D380):
/// the test target links the full Foundation, so Foundation itself is the oracle.
@Suite struct PlainTextEditsOracleTests {
    /// Scalars that sit on the edges of the classes: ASCII controls, Zs, Zl, Zp, NEL, NBSP,
    /// zero-width characters (not whitespace), combining marks, emoji, CJK.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", ".", "\"", ":", "_", "T", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}",
        "\u{2000}", "\u{2009}", "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
        "\u{301}", "é", "ß", "日", "🍣", "\u{0}",
    ]

    static func samples(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &generator) { scalars.append(alphabet.randomElement(using: &generator)!) }
            return String(scalars)
        }
    }

    @Test func trimmingMatchesFoundation() {
        for text in Self.samples(count: 20_000, seed: 379) {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.unicodeScalars.map(\.value))")
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func everyScalarIsClassedAsFoundationClassesIt() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(PlainTextEdits.isWhitespace(scalar) == CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
            #expect(PlainTextEdits.isWhitespaceOrNewline(scalar) == CharacterSet.whitespacesAndNewlines.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: ["\"", ".", "T", ":", "_", "\n", "\u{0}", "ab"])
    func replacingMatchesFoundationOnItsTargets(target: String) {
        // The callers' targets are ASCII; on text where no target scalar starts a grapheme cluster
        // with a combining mark after it, Foundation agrees scalar for scalar.
        for text in Self.samples(count: 5_000, seed: 17) where !text.unicodeScalars.contains("\u{301}") {
            #expect(text.replacingEvery(target, with: "<>") == text.replacingOccurrences(of: target, with: "<>"), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func aQuoteBeforeACombiningMarkIsStillDoubled() {
        // CSV quoting must see every U+0022, whatever follows it.
        #expect("a\"\u{301}b".replacingEvery("\"", with: "\"\"") == "a\"\"\u{301}b")
        #expect("".replacingEvery("\"", with: "x") == "")
        #expect("abc".replacingEvery("", with: "x") == "abc")
    }

    @Test(arguments: [("EUR", 5), ("EUR", 3), ("EUR", 2), ("", 4), ("████▌", 8), ("budget_exceeded", 16)])
    func paddingMatchesFoundation(text: String, length: Int) {
        #expect(text.padded(toLength: length) == text.padding(toLength: length, withPad: " ", startingAt: 0))
    }

    @Test(arguments: [("Food", "food", true), ("STRASSE", "straße", true), ("ΣΟΦΟΣ", "σοφος", true), ("Cafe\u{301}", "CAFÉ", true),
                      ("Food", "Foods", false), ("i", "İ", false)])
    func caseInsensitiveEqualityMatchesFoundation(a: String, b: String, equal: Bool) {
        #expect(a.equalsIgnoringCase(b) == equal)
        #expect((a.caseInsensitiveCompare(b) == .orderedSame) == equal)
    }
}
