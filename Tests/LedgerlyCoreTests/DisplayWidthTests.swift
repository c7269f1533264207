@testable import LedgerlyCore
import Testing

/// Terminal columns as `wcwidth` counts them, for tables and journal padding.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Cafe", 4), ("Café", 4), ("Cafe\u{301}", 4), ("日本食", 6), ("東京 現金", 9), ("한국어", 6), ("ｶﾀｶﾅ", 4),
        ("ＡＢＣ", 6), ("€12.50", 6), ("🍣", 2), ("a\u{200B}b", 2), ("tab\there", 7), ("", 0), ("ﾟ", 1), ("〜", 2),
    ])
    func columns(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text)")
    }

    /// `of(String)` reads a string's bytes in place (D390); the generic version, used for
    /// substrings, walks them by index. Both count the same, small and heap-stored strings alike.
    @Test(arguments: [
        "", "Cafe", "tab\there", "del\u{7F}x", "a plain line of text, longer than fifteen bytes", "Café au lait, longer than fifteen",
        "日本食", "\u{1B}[1mbold\u{1B}[0m", String(repeating: "x", count: 300),
    ])
    func theStringAndTheGenericPathAgree(text: String) {
        #expect(DisplayWidth.of(text) == DisplayWidth.of(text[...]), "\(text)")
        #expect(DisplayWidth.of(text) == text.unicodeScalars.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text)")
    }

    @Test func wideRangesAreSortedAndApart() {
        // The binary search needs them ascending and not overlapping.
        let ranges = DisplayWidth.wideRanges
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            #expect(previous.upperBound < next.lowerBound, "\(previous) then \(next)")
        }
    }
}
