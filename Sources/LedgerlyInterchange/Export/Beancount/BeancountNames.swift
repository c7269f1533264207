/// Beancount's names for the journal's accounts and commodities, made once per export and kept
/// unique.
///
/// Why a mapping: the journal's names are hledger's (`expenses:Food:Eating out`, `"VWCE.DE"`),
/// and beancount is stricter: an account is five capitalised roots and components that start
/// with an upper-case letter or a digit and hold only letters, digits and '-'
/// (`Expenses:Food:Eating-out`); a commodity is upper-case, 2 to 24 characters of
/// `A-Z 0-9 ' . _ -`, starting with a letter and ending with a letter or digit. Rewriting can
/// make two names one ("Food & Drink", "Food - Drink"), so a name already given to another gets
/// "-2", "-3"… as hledger's `#<id>` does.
struct BeancountNames: Sendable {
    private var accounts: [String: String] = [:]
    private var takenAccounts: Set<String> = []
    private var commodities: [String: String] = [:]
    private var takenCommodities: Set<String> = []

    /// The beancount account for a journal account: its parent's beancount name (so a child
    /// stays under a parent that had to be renamed) and its own last component, made unique.
    mutating func account(_ name: String) -> String {
        if let known = accounts[name] { return known }
        let base: String
        if let colon = name.lastIndex(of: ":") {
            base = account(String(name[..<colon])) + ":" + Self.component(String(name[name.index(after: colon)...]))
        } else {
            base = Self.root(name)
        }
        var candidate = base
        var attempt = 2
        while takenAccounts.contains(candidate) {
            candidate = "\(base)-\(attempt)"
            attempt += 1
        }
        takenAccounts.insert(candidate)
        accounts[name] = candidate
        return candidate
    }

    /// The beancount commodity for a journal commodity code, 24 characters at most with its
    /// `-2` when one is needed.
    mutating func commodity(_ code: String) -> String {
        if let known = commodities[code] { return known }
        let base = Self.commodityName(code)
        var candidate = base
        var attempt = 2
        while takenCommodities.contains(candidate) {
            let suffix = "-\(attempt)"
            candidate = Self.trimmed(String(base.prefix(Self.maximumCommodityLength - suffix.count))) + suffix
            attempt += 1
        }
        takenCommodities.insert(candidate)
        commodities[code] = candidate
        return candidate
    }

    /// Beancount's longest commodity name.
    static let maximumCommodityLength = 24

    /// `assets` → `Assets`, and so for the other roots the journal uses; anything else is put
    /// under `Equity`, the root that changes no balance a user reads.
    static func root(_ name: String) -> String {
        switch name.lowercased() {
        case "assets": "Assets"
        case "liabilities": "Liabilities"
        case "income": "Income"
        case "expenses": "Expenses"
        case "equity": "Equity"
        default: "Equity:" + component(name)
        }
    }

    /// One component: every character but letters, ASCII digits and '-' becomes '-' (runs of
    /// them one), combining marks are left out,
    /// none at either end; the first letter upper-cased when it has an upper case, else an `X-`
    /// in front when the component does not start with an upper-case letter or a digit (`日本食`
    /// becomes `X-日本食`); `Unnamed` when nothing is left.
    static func component(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                text.unicodeScalars.append(scalar)
            case .nonspacingMark, .spacingMark, .enclosingMark:
                // An accent written apart (e + U+0301): beancount takes no mark, the letter stays.
                continue
            default:
                if scalar.isASCII, ("0"..."9").contains(scalar) {
                    text.unicodeScalars.append(scalar)
                } else if !text.isEmpty && text.last != "-" {
                    text.append("-")
                }
            }
        }
        while text.last == "-" { text.removeLast() }
        guard let first = text.first else { return "Unnamed" }
        if first.isUppercase || first.isASCII && first.isNumber { return text }
        let upper = String(first).uppercased()
        if first.isLowercase, upper.count == 1, let character = upper.first, character.isUppercase {
            return upper + text.dropFirst()
        }
        return "X-" + text
    }

    /// Upper-cased, characters beancount does not take as '-', an `X` before a first character
    /// that is no letter and after a last that is no letter or digit, a second `X` for a
    /// one-letter code, and cut to 24 characters (the code Ledgerly has is kept as metadata).
    static func commodityName(_ code: String) -> String {
        var text = String(code.uppercased().map { character -> Character in
            guard character.isASCII, character.isLetter || character.isNumber || "'._-".contains(character) else { return "-" }
            return character
        })
        if let first = text.first, !first.isLetter { text = "X" + text }
        if let last = text.last, !(last.isLetter || last.isNumber) { text += "X" }
        if text.count < 2 { text += "X" }
        return trimmed(String(text.prefix(maximumCommodityLength)))
    }

    /// Without the characters at the end that cannot end a commodity ('-', '.', '_', '\'').
    private static func trimmed(_ text: String) -> String {
        var text = text
        while let last = text.last, !(last.isLetter || last.isNumber) { text.removeLast() }
        return text
    }
}
