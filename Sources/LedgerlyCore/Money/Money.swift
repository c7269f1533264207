/// An exact amount of one currency, held as integer minor units (cents, yen, fils).
///
/// There is no floating point anywhere on the path from text to storage: amounts are parsed
/// from decimal strings digit by digit and formatted back the same way, so SQL sums are exact.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// Every amount the ledger records is below this many minor units (10¹⁵: 10 trillion EUR, a
    /// quadrillion JPY), so sums of many stay inside Int64; conversion results are held to it too.
    public static let maximumMinorUnits: Int64 = 1_000_000_000_000_000

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
        // Work on UTF-8 bytes: only ASCII 0-9 are digits here ("١", "5️⃣" or "1\u{301}" are not).
        // One pass finds the parts, a second adds the digits up, with nothing allocated: every
        // amount a batch, an import or an export reads comes through here.
        let utf8 = text.utf8
        var index = utf8.startIndex
        let negative = index != utf8.endIndex && utf8[index] == UInt8(ascii: "-")
        if negative { index = utf8.index(after: index) }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var wholeDigits = 0, fractionDigits = 0, point = false
        /// Fraction digits up to the last one that is not 0 (trailing zeros may go beyond the exponent).
        var significantFraction = 0
        var position = index
        while position != utf8.endIndex {
            let byte = utf8[position]
            if byte == UInt8(ascii: ".") && !point {
                point = true
            } else if isDigit(byte) {
                if point {
                    fractionDigits += 1
                    if byte != 0x30 { significantFraction = fractionDigits }
                } else {
                    wholeDigits += 1
                }
            } else {
                throw MoneyError.malformedAmount(text)
            }
            position = utf8.index(after: position)
        }
        guard wholeDigits > 0, !(point && fractionDigits == 0) else { throw MoneyError.malformedAmount(text) }
        guard significantFraction <= currency.exponent else {
            throw MoneyError.tooManyDecimals(amount: text, currency: currency.code, allowed: currency.exponent)
        }
        var value: Int64 = 0
        var fractionRead = 0
        func add(_ digit: Int64) throws(MoneyError) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { throw MoneyError.outOfRange(text) }
            value = added
        }
        point = false
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: ".") { point = true; continue }
            if point {
                // Digits past the exponent are zeros (checked above): they add nothing.
                guard fractionRead < currency.exponent else { break }
                fractionRead += 1
            }
            try add(Int64(byte - 0x30))
        }
        for _ in fractionRead..<max(currency.exponent, fractionRead) { try add(0) }
        self.init(minorUnits: negative ? -value : value, currency: currency)
    }

    /// The amount as a plain decimal string with exactly the currency's number of decimals.
    public var decimalString: String { Money.format(minorUnits: minorUnits, exponent: currency.exponent) }

    public var description: String { "\(decimalString) \(currency.code)" }

    /// "-1234.56" for -123456 minor units at exponent 2: at least one digit before the point,
    /// exactly `exponent` after it, no point at exponent 0 (or below).
    ///
    /// Written right to left into a byte buffer: the reports format every cell of their tables
    /// (thousands per category report), and building the text with `String` counting, padding and
    /// inserting was 8 % of `report.categories` at a million transactions (D230).
    public static func format(minorUnits: Int64, exponent: Int) -> String {
        let exponent = max(exponent, 0)
        // magnitude avoids overflow on Int64.min
        var magnitude = minorUnits.magnitude
        // At most 20 digits or `exponent` + 1 of them, a point and a sign.
        let capacity = 22 + exponent
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var position = capacity
            var written = 0
            repeat {
                if exponent > 0 && written == exponent {
                    position -= 1
                    buffer[position] = UInt8(ascii: ".")
                }
                position -= 1
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                written += 1
            } while magnitude > 0 || written <= exponent
            if minorUnits < 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[position...]), as: UTF8.self)
        }
    }
}
