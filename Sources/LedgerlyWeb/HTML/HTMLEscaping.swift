/// The one escaping function every page goes through (D512): text the user typed (names, notes,
/// tags, a store's error message) becomes inert markup, whatever it holds — `<script>`, quotes
/// for attribute values, `{{ }}` (harmless here: no template engine reads the output again).
public enum HTMLEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'`, so the result is safe both as element text and inside
    /// a double- or single-quoted attribute value.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
