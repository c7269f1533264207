/// The few string edits the CLI's modules used from Foundation (`trimmingCharacters(in:)`,
/// `replacingOccurrences(of:with:)`, `range(of:)`, `padding(toLength:…)`), written on Unicode
/// scalars and UTF-16 so that those modules link FoundationEssentials only (D380): the full
/// Foundation brought ICU and ~1,900 more conformance records into every `ledgerly` command.
///
/// Each works on scalars, not `Character`s, so an edit never depends on what a neighbouring
/// combining mark does to grapheme breaking: a quote followed by U+0301 is still a quote to
/// double in a CSV field.
extension StringProtocol {
    /// Without leading and trailing tabs, space separators (Unicode category Zs) and U+200B: the
    /// scalars of Foundation's `CharacterSet.whitespaces`.
    public func trimmingWhitespace() -> String {
        trimmingScalars(where: PlainTextEdits.isWhitespace)
    }

    /// Without leading and trailing whitespace and line breaks: Foundation's
    /// `CharacterSet.whitespacesAndNewlines` (categories Z*, tab, U+200B, U+000A–U+000D, U+0085).
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars(where: PlainTextEdits.isWhitespaceOrNewline)
    }

    /// Every occurrence of `target` (compared scalar by scalar, left to right, not overlapping)
    /// replaced with `replacement`.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        guard !needle.isEmpty else { return String(self) }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == needle[0], index + needle.count <= scalars.count, scalars[index..<index + needle.count].elementsEqual(needle) {
                result.append(contentsOf: replacement.unicodeScalars)
                index += needle.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// Padded with spaces, or cut, to `length` UTF-16 code units, as Foundation's
    /// `padding(toLength:withPad:" ", startingAt: 0)` did (callers pass ASCII or single-unit text).
    public func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units >= length {
            return String(decoding: Array(utf16.prefix(length)), as: UTF16.self)
        }
        return String(self) + String(repeating: " ", count: length - units)
    }

    /// Whether the two are the same text but for case, as Foundation's `caseInsensitiveCompare`
    /// answered `.orderedSame`: upper-cased and then lower-cased (so "ß" meets "SS" and a final
    /// "ς" meets "Σ"), then compared as Swift compares strings (canonical equivalence).
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        uppercased().lowercased() == other.uppercased().lowercased()
    }

    private func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) }) ?? first
        // Nothing to trim (the usual case): the text itself, not a copy of its scalars.
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

/// The character classes of `PlainTextEdits`' trimming, as Foundation defines them.
public enum PlainTextEdits {
    /// Tab, a space separator (Zs), or U+200B ZERO WIDTH SPACE, which Foundation counts too (a
    /// test compares every scalar with Foundation's set).
    ///
    /// ASCII is answered without the Unicode tables (a property look-up costs a few hundred
    /// instructions, and almost every scalar trimmed is ASCII): only tab and space are whitespace there.
    public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// `isWhitespace`, a line or paragraph separator (Zl, Zp), U+000A–U+000D or U+0085 (ASCII
    /// answered as in `isWhitespace`).
    public static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85: return true
        case 0..<0x80: return false
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return scalar == "\u{200B}"
            }
        }
    }
}
