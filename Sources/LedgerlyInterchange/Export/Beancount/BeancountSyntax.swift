/// Pieces of beancount syntax for what Ledgerly stores as free text.
enum BeancountSyntax {
    /// Accounts and commodities are opened on this day: before any entry a ledger can hold, since
    /// beancount refuses a posting to an account on a day before its `open`.
    static let openDate = "1900-01-01"

    /// A string literal: `"` and `\` escaped; line breaks and tabs kept (beancount strings may
    /// span lines, so notes of several lines stay whole); other control characters, which the
    /// parser cannot take, become spaces.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.properties.generalCategory == .control {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Beancount refuses a string of more than this many lines (`long_string_maxlines`; the
    /// option to raise it is not honoured by the 2.3 parser).
    static let maximumStringLines = 64

    /// `text` cut after every 64th line, so each part is a string beancount takes; joined with
    /// line breaks the parts are `text` again. At least one part.
    static func stringParts(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > maximumStringLines else { return [text] }
        return stride(from: 0, to: lines.count, by: maximumStringLines).map {
            lines[$0..<min($0 + maximumStringLines, lines.count)].joined(separator: "\n")
        }
    }

    /// A tag `#name`: characters other than ASCII letters, digits and `-_/.` as '-', runs of '-'
    /// one, none at either end; nil when nothing is left.
    static func tag(_ name: String) -> String? {
        var text = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber || "_/.".contains(character) {
                text.append(character)
            } else if !text.isEmpty && text.last != "-" {
                text.append("-")
            }
        }
        while text.last == "-" { text.removeLast() }
        return text.isEmpty ? nil : text
    }
}
