import LedgerlyCore

/// An amount as people type it, made the protocol's plain decimal (`1234.56`) before anything is
/// sent (docs/cli-input.md): thousands grouped (`1,234.56`, `1 234.56`, `1'234.56`), a decimal
/// comma where the locale writes one (`1.234,56`, `12,50`), and a currency mark before or after
/// it (`€12.50`, `12,50 €`, `EUR 12.50`). Grouping is checked, never guessed: a group that is not
/// three digits is refused (`12,50` where the locale's decimal mark is a point), as is a symbol
/// several currencies share (`$`, `¥`, `kr`).
struct AmountText {
    /// Whether the locale writes decimals with a comma.
    let decimalComma: Bool

    /// The plain decimal, and the currency a mark named (nil when none was typed).
    /// `loneGroupIsAmbiguous`: for rates, prices, quantities and percentages, where three decimals
    /// are common, one group separator followed by exactly three digits and no decimal part
    /// (`1.085`, `1,085`) could be either reading, so it is refused rather than read as thousands.
    func read(_ text: String, loneGroupIsAmbiguous: Bool = false) throws(AmountTextError) -> (amount: String, currency: String?) {
        var body = Substring(text.filter { $0 != "\u{00A0}" && $0 != "\u{202F}" })
        var currency: String?
        body = Self.trimmed(body)
        if let (code, rest) = Self.mark(at: body) {
            currency = code
            body = Self.trimmed(rest)
        }
        var negative = false
        if body.first == "-" {
            negative = true
            body = Self.trimmed(body.dropFirst())
            if let (code, rest) = Self.mark(at: body), currency == nil {
                currency = code
                body = Self.trimmed(rest)
            }
        }
        if let (code, rest) = Self.mark(atEndOf: body) {
            guard currency == nil else { throw .twoMarks(text) }
            currency = code
            body = Self.trimmed(rest)
        }
        if Self.ambiguousSymbols.contains(where: { body.hasPrefix($0) || body.hasSuffix($0) }) { throw .ambiguousSymbol(text) }
        let decimal: Character = decimalComma ? "," : "."
        let parts = body.split(separator: decimal, omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty else { throw .unreadable(text) }
        if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isASCIIDigitCharacter) {
            throw parts[1].contains(where: { $0 == "." || $0 == "," }) ? .wrongDecimalMark(text, comma: decimalComma) : .unreadable(text)
        }
        let digits = try Self.ungrouped(whole, text: text, decimalComma: decimalComma, loneGroupIsAmbiguous: loneGroupIsAmbiguous && parts.count == 1)
        let fraction = parts.count == 2 ? "." + parts[1] : ""
        return ((negative ? "-" : "") + digits + fraction, currency)
    }

    /// The whole part without its grouping: groups of three after the first (one to three, not
    /// starting with 0: `0,500` is no grouped number, and reading it as 500 would be a thousand
    /// times the `0.500` that was meant).
    private static func ungrouped(_ whole: Substring, text: String, decimalComma: Bool, loneGroupIsAmbiguous: Bool) throws(AmountTextError) -> String {
        let separators: Set<Character> = decimalComma ? [".", " ", "'"] : [",", " ", "'"]
        guard whole.allSatisfy({ $0.isASCIIDigitCharacter || separators.contains($0) }) else { throw .unreadable(text) }
        let groups = whole.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard groups.count > 1 else { return String(whole) }
        let marks = Set(whole.filter { separators.contains($0) })
        guard marks.count == 1, (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
            throw .badGrouping(text, comma: decimalComma)
        }
        guard groups[0].first != "0" else { throw .wrongDecimalMark(text, comma: decimalComma) }
        if loneGroupIsAmbiguous && groups.count == 2 { throw .ambiguousGroup(text, comma: decimalComma) }
        return groups.joined()
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var trimmed = text
        while trimmed.first == " " { trimmed = trimmed.dropFirst() }
        while trimmed.last == " " { trimmed = trimmed.dropLast() }
        return trimmed
    }

    /// Symbols one currency uses alone (ISO codes are read apart).
    private static let symbols = CurrencySymbols.unique
    /// Symbols several currencies use: refused, with a hint to write the code.
    private static let ambiguousSymbols = CurrencySymbols.shared.map(\.symbol)

    private static func mark(at text: Substring) -> (String, Substring)? {
        for (symbol, code) in symbols where text.hasPrefix(symbol) { return (code, text.dropFirst(symbol.count)) }
        let code = text.prefix(3)
        if code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), text.dropFirst(3).first.map({ $0 == " " || $0.isASCIIDigitCharacter || $0 == "-" }) ?? false {
            return (String(code), text.dropFirst(3))
        }
        return nil
    }

    private static func mark(atEndOf text: Substring) -> (String, Substring)? {
        for (symbol, code) in symbols where text.hasSuffix(symbol) { return (code, text.dropLast(symbol.count)) }
        let code = text.suffix(3)
        if code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), text.dropLast(3).last.map({ $0 == " " || $0.isASCIIDigitCharacter }) ?? false {
            return (String(code), text.dropLast(3))
        }
        return nil
    }

    /// Languages that write decimals with a comma (`de`, `fr`, `es`, …), by `LC_ALL`, `LC_NUMERIC`
    /// or `LANG`; false without a locale (the protocol's point).
    static func decimalComma(environment: [String: String]) -> Bool {
        guard let locale = ["LC_ALL", "LC_NUMERIC", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return false }
        let language = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" }
        return commaLanguages.contains(String(language))
    }

    private static let commaLanguages: Set<String> = [
        "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "sv", "da", "nb", "nn", "no", "fi", "cs", "sk", "tr", "el", "hu", "ro", "bg", "uk",
        "hr", "sl", "sr", "lt", "lv", "et", "id", "vi", "ca", "eu", "gl", "is", "be", "kk", "az", "ka",
    ]
}

/// Why an amount typed on the command line is not one.
enum AmountTextError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case badGrouping(String, comma: Bool)
    case wrongDecimalMark(String, comma: Bool)
    case ambiguousSymbol(String)
    case twoMarks(String)
    case ambiguousGroup(String, comma: Bool)

    var description: String {
        switch self {
        case .unreadable(let text):
            "'\(text)' is not an amount: give a decimal such as 12.50 or 1,234.56, with a currency mark if you like (€12.50, 12.50 EUR)"
        case .badGrouping(let text, let comma):
            "'\(text)' groups its digits oddly: thousands go in threes (\(comma ? "1.234,56" : "1,234.56")), and the decimal mark here is \(comma ? "a comma" : "a point") (\(comma ? "12,50" : "12.50"))"
        case .wrongDecimalMark(let text, let comma):
            "'\(text)' mixes its marks: the decimal mark here is \(comma ? "a comma (1.234,56)" : "a point (1,234.56)"), as the locale (LC_NUMERIC, LANG) says"
        case .ambiguousSymbol(let text):
            "'\(text)' has a symbol several currencies use: write the code instead (USD 12.50, 12.50 CAD, JPY 1200)"
        case .twoMarks(let text):
            "'\(text)' names a currency twice"
        case .ambiguousGroup(let text, let comma):
            "'\(text)' could be a whole number grouped in thousands or a decimal: write \(comma ? "1,085 for a decimal or 1085" : "1.085 for a decimal or 1085") (the decimal mark here is \(comma ? "a comma" : "a point"))"
        }
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
