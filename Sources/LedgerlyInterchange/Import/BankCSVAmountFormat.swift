import LedgerlyCore

/// How a bank writes numbers, and the parser that turns its text into exact `Money`.
///
/// The text is rewritten digit by digit into the plain form `Money(parsing:)` accepts and
/// handed to it, so the one rule of the ledger about decimals (no more than the currency has)
/// applies to imports too, and no floating point touches an amount.
///
/// Accepted: a leading `+`/`-` (or U+2212 minus), a trailing `-` (some German exports),
/// parentheses for negative (accounting style), the configured decimal separator and, when one
/// is configured, thousands separators in correct groups of three before the decimal
/// separator. Grouping is checked because it is what tells `1.234` (one thousand…) from a
/// misconfigured decimal separator. A currency mark before or after the number (`€12.50`,
/// `12,50 €`, `-1.234,56 EUR`, `€ -12.50`) is accepted when it can mean the row's currency, which
/// comes from a currency column or the wallet, never from the mark: `$12.50` in a USD row is
/// fine, in a EUR row it is refused (`.otherCurrency`), and a mark this reader does not know is
/// refused too (`.currencySymbol`), so no amount of another currency is taken for the row's.
struct BankCSVAmountFormat: Sendable {
    enum Problem: Error, Equatable {
        case empty
        case notANumber
        case currencySymbol
        /// A mark (symbol or code) that cannot mean the row's currency.
        case otherCurrency(mark: String)
        case tooManyDecimals(allowed: Int)
        case outOfRange
    }

    let decimalSeparator: Character
    let thousandsSeparator: Character?
    private let decimalByte: UInt8
    private let thousandsByte: UInt8?

    /// - Parameters: both ASCII (the mapping only allows `.` `,` ` ` `'`). When the thousands
    ///   separator is a space, the no-break spaces spreadsheets and French banks put there
    ///   (U+00A0, U+202F) count as the same separator.
    init(decimalSeparator: Character, thousandsSeparator: Character?) {
        self.decimalSeparator = decimalSeparator
        self.thousandsSeparator = thousandsSeparator
        decimalByte = decimalSeparator.asciiValue ?? UInt8(ascii: ".")
        thousandsByte = thousandsSeparator?.asciiValue
    }

    /// The signed amount `text` holds in `currency`.
    func parse(_ text: String, currency: Currency) -> Result<Money, Problem> {
        if let marked = Self.withoutMark(text) {
            guard CurrencySymbols.mark(marked.mark, canMean: currency.code) else { return .failure(.otherCurrency(mark: marked.mark)) }
            return ImportText.withBytes(marked.number) { parse($0, currency: currency) }
        }
        return ImportText.withBytes(text) { parse($0, currency: currency) }
    }

    /// The number without its currency mark, and the mark, when `text` has one at either end
    /// (after a sign at the front: `-€12.50`); nil when it has none.
    static func withoutMark(_ text: String) -> (number: String, mark: String)? {
        // Marks are letters, `$` or non-ASCII; a plain number has none of them (a no-break
        // space or U+2212 minus is non-ASCII too: they cost the slower look below, nothing more).
        guard text.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "$") || (UInt8(ascii: "A")...UInt8(ascii: "z")).contains($0) }) else { return nil }
        let trimmed = Substring(text.trimmingWhitespace())
        var sign = ""
        var body = trimmed
        if let signCharacter = body.first, "+-\u{2212}".contains(signCharacter) {
            let rest = Substring(body.dropFirst().trimmingWhitespace())
            if markAtStart(rest) != nil {
                sign = String(signCharacter)
                body = rest
            }
        }
        if let (mark, rest) = markAtStart(body) { return (sign + rest.trimmingWhitespace(), mark) }
        if let (mark, rest) = markAtEnd(body) { return (sign + rest.trimmingWhitespace(), mark) }
        return nil
    }

    private static func markAtStart(_ text: Substring) -> (String, Substring)? {
        for symbol in allSymbols where text.hasPrefix(symbol) { return (symbol, text.dropFirst(symbol.count)) }
        let code = text.prefix(3)
        let next = text.dropFirst(3).first
        if code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), let next, next.asciiDigit != nil || next.isWhitespace || "+-".contains(next) {
            return (String(code), text.dropFirst(3))
        }
        return nil
    }

    private static func markAtEnd(_ text: Substring) -> (String, Substring)? {
        for symbol in allSymbols where text.hasSuffix(symbol) { return (symbol, text.dropLast(symbol.count)) }
        let code = text.suffix(3)
        let before = text.dropLast(3).last
        if code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), let before, before.asciiDigit != nil || before.isWhitespace || before == "-" {
            return (String(code), text.dropLast(3))
        }
        return nil
    }

    /// Every symbol, longest first, so `US$` is tried before `$`.
    private static let allSymbols: [String] = (Array(CurrencySymbols.unique.keys) + CurrencySymbols.shared.map(\.symbol)).sorted { $0.count > $1.count }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, currency: Currency) -> Result<Money, Problem> {
        var start = 0
        var end = bytes.count
        func trim() {
            let range = ImportText.trimmedRange(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            end = start + range.upperBound
            start += range.lowerBound
        }
        trim()
        guard start < end else { return .failure(.empty) }
        var negative = false
        var signs = 0
        if bytes[start] == UInt8(ascii: "("), bytes[end - 1] == UInt8(ascii: ")") {
            negative = true
            signs += 1
            start += 1
            end -= 1
            trim()
        }
        let unicodeMinus: [UInt8] = [0xE2, 0x88, 0x92]
        if start < end, bytes[start] == UInt8(ascii: "+") || bytes[start] == UInt8(ascii: "-") {
            negative = negative || bytes[start] == UInt8(ascii: "-")
            signs += 1
            start += 1
            trim()
        } else if end - start >= 3, bytes[start..<(start + 3)].elementsEqual(unicodeMinus) {
            negative = true
            signs += 1
            start += 3
            trim()
        } else if start < end, bytes[end - 1] == UInt8(ascii: "-") || bytes[end - 1] == UInt8(ascii: "+") {
            negative = negative || bytes[end - 1] == UInt8(ascii: "-")
            signs += 1
            end -= 1
            trim()
        }

        var plain: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        plain.reserveCapacity(end - start + 2)
        var wholeDigits = 0
        var fractionDigits = 0
        var firstGroup = 0
        var groupCount = 1
        var currentGroup = 0
        var badGrouping = false
        var seenDecimal = false
        var malformed = signs > 1
        var index = start
        while index < end, !malformed {
            let byte = bytes[index]
            if byte >= 0x30, byte <= 0x39 {
                if seenDecimal { fractionDigits += 1 } else { wholeDigits += 1; currentGroup += 1 }
                plain.append(byte)
                index += 1
            } else if byte == decimalByte, !seenDecimal {
                seenDecimal = true
                if wholeDigits == 0 { plain.append(UInt8(ascii: "0")) }
                plain.append(UInt8(ascii: "."))
                index += 1
            } else if !seenDecimal, let separatorLength = thousandsLength(bytes, at: index) {
                if groupCount == 1 { firstGroup = currentGroup } else if currentGroup != 3 { badGrouping = true }
                groupCount += 1
                currentGroup = 0
                index += separatorLength
            } else {
                malformed = true
            }
        }
        if groupCount > 1, badGrouping || !(1...3).contains(firstGroup) || currentGroup != 3 { malformed = true }
        if wholeDigits + fractionDigits == 0 || (seenDecimal && fractionDigits == 0) { malformed = true }
        if malformed {
            // Only now look closer, so the common case pays no Unicode property lookups.
            let body = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            let hasSymbol = body.unicodeScalars.contains { $0.properties.generalCategory == .currencySymbol }
            return .failure(hasSymbol || Self.hasCurrencyCode(Substring(body)) ? .currencySymbol : .notANumber)
        }
        do throws(MoneyError) {
            return .success(try Money(parsing: String(decoding: plain, as: UTF8.self), currency: currency))
        } catch {
            switch error {
            case .tooManyDecimals(_, _, let allowed): return .failure(.tooManyDecimals(allowed: allowed))
            case .outOfRange: return .failure(.outOfRange)
            case .malformedAmount, .invalidCurrencyCode: return .failure(.notANumber)
            }
        }
    }

    /// The length of the thousands separator at `index`, or nil when there is none.
    private func thousandsLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard let thousandsByte else { return nil }
        if bytes[index] == thousandsByte { return 1 }
        guard thousandsByte == UInt8(ascii: " "), index + 1 < bytes.count else { return nil }
        if bytes[index] == 0xC2, bytes[index + 1] == 0xA0 { return 2 }
        if index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0xAF { return 3 }
        return nil
    }

    /// Digits with three capital letters at either end ("EUR 12.50", "12,50 USD"): a currency
    /// code, told apart from stray letters ("12,3x", "abc"), which are simply not a number.
    private static func hasCurrencyCode(_ text: Substring) -> Bool {
        guard text.contains(where: { $0.asciiDigit != nil }) else { return false }
        let isCapital: (Character) -> Bool = { $0.isASCII && $0.isUppercase }
        return text.prefix(while: isCapital).count == 3 || text.reversed().prefix(while: isCapital).count == 3
    }
}
