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
/// misconfigured decimal separator. Currency symbols and codes are refused with their own
/// message: the currency comes from a column or the wallet, never from guessing at a symbol
/// (`$` is a dozen currencies).
struct BankCSVAmountFormat: Sendable {
    enum Problem: Error, Equatable {
        case empty
        case notANumber
        case currencySymbol
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
        ImportText.withBytes(text) { parse($0, currency: currency) }
    }

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
