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

    /// What marks a comment line as a further line of the notes: `; .. with Anna`.
    ///
    /// Why a mark: ledger reads a comment whose first word ends in ':' as a metadata key (and one
    /// ending in '::' as an expression to evaluate), so a note line "Reminder: call Bob" would
    /// become a tag `Reminder` and, with `--pedantic`, an error. The mark is the first word, so
    /// the note's own words are never read that way.
    static let noteLineMark = ".."

    /// The notes' lines after the one the description shows (`description(_:)`; every line when
    /// `all`, for an entry whose description is not the notes), each as it is
    /// but for control characters (a space each, as a line break inside a line cannot be written)
    /// and trailing whitespace; and '[' before a digit or '=' is written "[ ", since ledger reads
    /// `[2024-01-05]` or `[1]` in a comment as a date and refuses the file when it is not one.
    /// Blank lines between kept; blank lines at the end left out.
    static func noteLines(_ notes: String?, all: Bool = false) -> [String] {
        guard let notes else { return [] }
        // Most notes are one line of printable ASCII without '[': nothing in them is replaced, so
        // only the trailing spaces go (checked on bytes: the per-character path below, with its
        // Unicode property look-ups, was a tenth of a journal export's CPU).
        if notes.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "[") }) {
            var text = Substring(notes)
            while text.last == " " { text.removeLast() }
            guard all, !text.isEmpty else { return [] }
            return [noteLineMark + " " + text]
        }
        let lines = notes.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.firstIndex(where: { !collapsingWhitespace(String($0)).isEmpty }) else { return [] }
        var result: [String] = []
        for line in lines[(all ? first : first + 1)...] {
            var text = ""
            var previous: Character = " "
            for character in line {
                if character == "\t" {
                    text.append(character)
                } else if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    text.append(" ")
                } else if previous == "[" && (character.isASCII && character.isNumber || character == "=") {
                    text.append(" ")
                    text.append(character)
                } else {
                    text.append(character)
                }
                previous = character
            }
            while let last = text.last, last.isWhitespace { text.removeLast() }
            result.append(text)
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.map { $0.isEmpty ? noteLineMark : noteLineMark + " " + $0 }
    }

    /// The tag names hledger and ledger read in one comment line, for `tag` directives: hledger
    /// takes every word that ends in ':' (`name:` or `name:value`); ledger a first word ending in
    /// ':' and every word like `:a:b:`.
    static func tagsRead(inComment comment: String) -> [String] {
        // Both readings need a ':'; most comment lines (a note's) have none.
        guard comment.utf8.contains(UInt8(ascii: ":")) else { return [] }
        // One word with one ':' (every entry's `ledgerly-id:12`): both readings give the part
        // before it, when there is one. Checked on bytes: splitting into words was a tenth of a
        // journal export's CPU.
        if let colon = comment.utf8.firstIndex(of: UInt8(ascii: ":")),
           comment.utf8.allSatisfy({ $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: ",") }),
           !comment.utf8[comment.utf8.index(after: colon)...].contains(UInt8(ascii: ":")) {
            return colon == comment.utf8.startIndex ? [] : [String(comment[..<colon])]
        }
        var names: [String] = []
        func add(_ name: Substring) {
            let name = String(name)
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        let words = comment.split(whereSeparator: { $0 == " " || $0 == "\t" })
        for (index, word) in words.enumerated() {
            // hledger: a name of no spaces or colons directly followed by ':', after a word start or ','.
            var start = word.startIndex
            for position in word.indices {
                if word[position] == "," { start = word.index(after: position) }
                if word[position] == ":" {
                    if position > start { add(word[start..<position]) }
                    break
                }
            }
            // ledger: `:a:b:` anywhere; `key:` or `key::` as the first word of two characters or more.
            // (ledger measures words in bytes.)
            guard word.utf8.count >= 2 else { continue }
            if word.first == ":" && word.last == ":" {
                for name in word.split(separator: ":") { add(name) }
            } else if index == words.firstIndex(where: { $0.utf8.count >= 2 }), word.last == ":" {
                add(word.hasSuffix("::") ? word.dropLast(2) : word.dropLast())
            }
        }
        return names
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
