/// How a statement file's bytes become text: UTF-8, ISO 8859-1 (Latin-1) or Windows-1252, the
/// encodings European bank exports come in (German and French banks still write CP1252).
///
/// A UTF-16 file (by its byte order mark) is refused by name. Without a choice, a file that is
/// valid UTF-8 is read as UTF-8, one that starts with UTF-8's byte order mark must be, and any
/// other is read as Windows-1252, with a note saying so (the CLI prints it): Latin-1 and CP1252 agree on every
/// letter banks write, and CP1252 also has `€`, which Latin-1 lacks (its byte 0x80 is a control
/// character there, so `latin1` refuses 0x80–0x9F rather than read a control character). A byte is
/// never replaced: a file that is not valid in the encoding is refused,
/// naming the line and the byte, rather than read with U+FFFD in place of a character.
public enum StatementTextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case latin1
    case cp1252

    /// The encoding a name means, in the spellings people and other programs write (`utf8`,
    /// `ISO-8859-1`, `Windows-1252`), case and dashes aside; nil for another encoding.
    public init?(name: String) {
        switch name.lowercased().filter({ $0 != "-" && $0 != "_" }) {
        case "utf8": self = .utf8
        case "latin1", "iso88591", "l1": self = .latin1
        case "cp1252", "windows1252", "win1252": self = .cp1252
        default: return nil
        }
    }

    /// The text, and a note when the encoding was chosen for the user.
    public static func decode(_ bytes: [UInt8], as chosen: StatementTextEncoding?) throws(BankStatementError) -> (text: String, note: String?) {
        // A UTF-16 file read byte by byte would be every other character a NUL: name it instead.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw BankStatementError(line: nil, "the file is UTF-16 (\(bytes[0] == 0xFF ? "little" : "big")-endian, by its byte order mark): save it as UTF-8 and import that")
        }
        // UTF-8's byte order mark says the file is UTF-8: a bad byte later is a broken file, not
        // a sign that it is Windows-1252.
        let markedUTF8 = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if chosen == nil || chosen == .utf8 {
            if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
            if chosen == .utf8 || markedUTF8 {
                let (line, byte) = firstInvalidUTF8(bytes)
                let advice = chosen == .utf8 ? "give the file's encoding with --encoding latin1 or cp1252" : "fix the file, or give its encoding with --encoding"
                throw BankStatementError(line: line, "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8\(markedUTF8 ? ", though the file starts with UTF-8's byte order mark" : ""): \(advice)")
            }
        }
        let encoding = chosen ?? .cp1252
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        var line = 1
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            if byte < 0x80 || byte >= 0xA0 {
                scalars.append(Unicode.Scalar(byte))
            } else if encoding == .latin1 {
                // Latin-1's 0x80–0x9F are C1 control characters, never in a statement's text: a
                // byte there means the file is Windows-1252 (€ is 0x80), and reading it as a
                // control character would change the user's text in silence.
                throw BankStatementError(line: line, "byte 0x\(String(byte, radix: 16, uppercase: true)) is a control character in Latin-1, not text: the file is probably Windows-1252 (--encoding cp1252)")
            } else if let scalar = cp1252High[Int(byte - 0x80)] {
                scalars.append(scalar)
            } else {
                throw BankStatementError(line: line, "byte 0x\(String(byte, radix: 16, uppercase: true)) has no character in Windows-1252" + (chosen == nil ? " (the file is not UTF-8 either)" : "") + ": give the file's encoding with --encoding")
            }
        }
        let note = chosen == nil ? "the file is not UTF-8: read as Windows-1252 (give --encoding utf-8, latin1 or cp1252 to choose)" : nil
        return (String(scalars), note)
    }

    /// The line and value of the first byte that breaks UTF-8.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, byte: UInt8) {
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            let end = index + length
            guard length > 0, end <= bytes.count, String(validating: bytes[index..<end], as: UTF8.self) != nil else { return (line, byte) }
            if byte == 0x0A { line += 1 }
            index = end
        }
        return (line, bytes.last ?? 0)
    }

    /// Windows-1252's 0x80–0x9F (where it differs from Latin-1); nil for its five unassigned bytes.
    private static let cp1252High: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]
}
