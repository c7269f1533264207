/// Turns free text (wallet and category names, notes, tags) into pieces of journal syntax.
///
/// Why: in hledger and ledger two spaces end an account name, ':' separates account levels, ';'
/// starts a comment in a description, and a line break ends the entry. A name that still held one
/// of these would move an amount, split a category into two levels or break the parse, so every
/// user-typed piece goes through here first.
enum JournalSyntax {
    /// One level of an account name: ':' → '-', every run of whitespace or control characters → one
    /// space, trimmed, and never empty (an empty level would merge with its parent).
    static func accountPart(_ name: String) -> String {
        let collapsed = collapsingWhitespace(String(name.map { $0 == ":" ? "-" : $0 }))
        return collapsed.isEmpty ? "unnamed" : collapsed
    }

    /// The entry's description: the first non-blank line of the notes, whitespace collapsed, with
    /// ';' (a comment in hledger) written as ','; "(no notes)" when there is nothing.
    static func description(_ notes: String?) -> String {
        guard let notes else { return "(no notes)" }
        if isPlainLine(notes) { return notes }
        for line in notes.split(whereSeparator: \.isNewline) {
            let text = collapsingWhitespace(String(line.map { $0 == ";" ? "," : $0 }))
            if !text.isEmpty { return text }
        }
        return "(no notes)"
    }

    /// A tag name hledger reads back as one tag: no whitespace, ':' (ends the name), ',' (ends the
    /// tag) or ';'. Nil when nothing is left.
    static func tag(_ name: String) -> String? {
        if !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "-") }) {
            return name
        }
        let replaced = String(name.map { character -> Character in
            if character == ":" || character == "," || character == ";" || isBlank(character) { return "-" }
            return character
        })
        let trimmed = replaced.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Text for a comment: one line, whitespace collapsed.
    static func commentText(_ text: String) -> String { collapsingWhitespace(text) }

    /// The common case, checked on bytes because it is met once per transaction: printable ASCII
    /// with single spaces between words and no ';', which the slow path would return unchanged.
    private static func isPlainLine(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: ";"), !(byte == 0x20 && previous == 0x20) else { return false }
            previous = byte
        }
        return previous != 0x20
    }

    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: isBlank).joined(separator: " ")
    }

    /// Whitespace (including line breaks and no-break spaces) and control characters such as NUL.
    private static func isBlank(_ character: Character) -> Bool {
        character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
