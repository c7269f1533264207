/// An exact amount of one currency, held as integer minor units (cents, yen, fils).
///
/// There is no floating point anywhere on the path from text to storage: amounts are parsed
/// from decimal strings digit by digit and formatted back the same way, so SQL sums are exact.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Parses a plain decimal string ("12.50", "-3", "0.5"). Rejects exponents, signs other than
    /// a leading '-', separators, NaN/Infinity, and more significant decimals than the currency has.
    /// Trailing zeros beyond the exponent are accepted ("12.500" EUR is exactly 12.50).
    public init(parsing text: String, currency: Currency) throws(MoneyError) {
        var digits = Substring(text)
        var negative = false
        if digits.first == "-" {
            negative = true
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count == 2 ? parts[1] : ""
        let isDigits: (Substring) -> Bool = { $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), !(parts.count == 2 && fraction.isEmpty) else {
            throw MoneyError.malformedAmount(text)
        }
        while fraction.count > currency.exponent, fraction.last == "0" { fraction = fraction.dropLast() }
        guard fraction.count <= currency.exponent else {
            throw MoneyError.tooManyDecimals(amount: text, currency: currency.code, allowed: currency.exponent)
        }
        let padded = String(whole) + String(fraction) + String(repeating: "0", count: currency.exponent - fraction.count)
        var value: Int64 = 0
        for character in padded {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(character.asciiValue! - 48))
            if overflow1 || overflow2 { throw MoneyError.outOfRange(text) }
            value = added
        }
        self.init(minorUnits: negative ? -value : value, currency: currency)
    }

    /// The amount as a plain decimal string with exactly the currency's number of decimals.
    public var decimalString: String { Money.format(minorUnits: minorUnits, exponent: currency.exponent) }

    public var description: String { "\(decimalString) \(currency.code)" }

    public static func format(minorUnits: Int64, exponent: Int) -> String {
        let negative = minorUnits < 0
        // magnitude avoids overflow on Int64.min
        var digits = String(minorUnits.magnitude)
        if exponent > 0 {
            if digits.count <= exponent { digits = String(repeating: "0", count: exponent - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -exponent))
        }
        return negative ? "-" + digits : digits
    }
}
