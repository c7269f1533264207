/// How an error message quotes a piece of its input: capped and escaped, so a message stays
/// short and printable whatever was sent (a 100,000-character `type`, a NUL, a newline, a
/// right-to-left override). Every message that repeats a request value goes through it.
public enum InputEcho {
    /// At most this many Unicode scalars of the input are repeated; longer input ends in "…".
    public static let maximumScalars = 64

    /// The input between single quotes: `'wallet.explode'`, `'nul\u0000after'`.
    public static func quoted<Text: StringProtocol>(_ text: Text) -> String {
        "'" + escaped(text) + "'"
    }

    /// The input capped at `maximumScalars` scalars, with control, format and line/paragraph
    /// separator characters written as escapes (`\n`, `\t`, `\u0000`, `\u202E`, `\U000E0001`),
    /// and `\` and `'` escaped so the quoting stays unambiguous.
    public static func escaped<Text: StringProtocol>(_ text: Text) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumScalars {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                    result += hexEscape(scalar.value)
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func hexEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return value <= 0xFFFF
            ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
