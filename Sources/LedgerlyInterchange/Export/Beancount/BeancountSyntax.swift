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
