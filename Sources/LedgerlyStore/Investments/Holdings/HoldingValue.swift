import LedgerlyCore

/// `TradeRules.value` (quantity × price in minor units, rounded half to even) and
/// `TradeRules.convert` (amount × rate) in integers, for the cases where that is provably the
/// same figure: a price or rate in plain decimal digits, and a product small enough that
/// `Decimal`'s 38 digits hold it exactly, so its rounding is the integer one. Anything else is
/// left to `TradeRules`.
///
/// Why: `invest.holdings` values every holding on every request (the totals cover them all), and
/// through `Decimal` that is a quantity formatted and parsed again, a price parsed, two
/// multiplications, a rounding and the result formatted and parsed: most of the per-holding cost
/// once rows were read by position (D141).
enum HoldingValue {
    /// 10³⁶: products below it have at most 36 digits, well inside `Decimal`'s exact range.
    private static let exactLimit: Int128 = 1_000_000_000_000_000_000_000_000_000_000_000_000

    /// The value in minor units; `.some(nil)` when it is too large to count (as `TradeRules.value`
    /// says), nil when this cannot tell and `TradeRules.value` must.
    static func value(_ quantity: Quantity, price text: String, exponent: Int) -> Int64?? {
        guard quantity.atto > 0, let (significand, decimals) = plainDecimal(text), significand > 0 else { return nil }
        // value = atto × significand × 10^exponent / 10^(18 + decimals)
        guard let quotient = scaled(quantity.atto, significand, shift: Quantity.scale + decimals - exponent) else { return nil }
        guard quotient < Int128(Money.maximumMinorUnits) else { return .some(nil) }
        return .some(Int64(quotient))
    }

    /// `TradeRules.convert` (`CurrencyConverter.apply`: amount × rate in the target's minor
    /// units, rounded half to even) for an amount of at least 0 and a rate given as its exact
    /// text (`ExchangeRate.decimalString`); nil when this cannot tell, or the result is past the
    /// ledger's limit (the converter says why).
    static func convert(_ amount: Int64, rate text: String, fromExponent: Int, toExponent: Int) -> Int64? {
        guard amount >= 0, let (significand, decimals) = plainDecimal(text), significand > 0,
              let quotient = scaled(Int128(amount), significand, shift: decimals - (toExponent - fromExponent)),
              quotient < Int128(Money.maximumMinorUnits) else { return nil }
        return Int64(quotient)
    }

    /// `a × b / 10^shift` rounded half to even, when `a × b` is below `exactLimit` (so `Decimal`
    /// holds the same product exactly and rounds it the same way); nil otherwise.
    private static func scaled(_ a: Int128, _ b: Int128, shift: Int) -> Int128? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        guard !overflow, product >= 0, product < exactLimit, shift >= -18, shift <= 38 else { return nil }
        if shift <= 0 {
            var result = product
            for _ in 0..<(-shift) {
                let (next, overflow) = result.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                result = next
            }
            return result
        }
        var divisor: Int128 = 1
        for _ in 0..<shift { divisor *= 10 }
        var quotient = product / divisor
        let twice = (product % divisor) * 2
        if twice > divisor || (twice == divisor && quotient % 2 == 1) { quotient += 1 }
        return quotient
    }

    /// `Quantity(stored:)` for the text a replay writes ("-"?, at most 20 digits, "." and at most 18
    /// more); nil for anything else, left to `Quantity(stored:)`. Its `String` splitting and padding
    /// were a tenth of a page of holdings (every position is read for the totals).
    static func quantity(stored text: String) -> Quantity? {
        var utf8 = text.utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        var whole: Int128 = 0, fraction: Int128 = 0
        var wholeDigits = 0, fractionDigits = 0
        var seenPoint = false
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
                continue
            }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            let digit = Int128(byte &- UInt8(ascii: "0"))
            if seenPoint {
                fractionDigits += 1
                fraction = fraction * 10 + digit
            } else {
                wholeDigits += 1
                whole = whole * 10 + digit
            }
        }
        guard wholeDigits > 0, wholeDigits <= 20, fractionDigits <= Quantity.scale else { return nil }
        for _ in fractionDigits..<Quantity.scale { fraction *= 10 }
        let atto = whole * 1_000_000_000_000_000_000 + fraction
        return Quantity(atto: negative ? -atto : atto)
    }

    /// Digits with at most one '.' inside them, at most 30 digits: the significand and the number
    /// of decimals. Nil for anything else (left to `ExchangeRate(stored:)`).
    static func plainDecimal(_ text: String) -> (Int128, Int)? {
        var significand: Int128 = 0
        var decimals = 0
        var digits = 0
        var seenPoint = false
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, digits > 0 else { return nil }
                seenPoint = true
                continue
            }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            digits += 1
            guard digits <= 30 else { return nil }
            significand = significand * 10 + Int128(byte &- UInt8(ascii: "0"))
            if seenPoint { decimals += 1 }
        }
        guard digits > 0, !(seenPoint && decimals == 0) else { return nil }
        return (significand, decimals)
    }
}
