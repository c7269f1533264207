import LedgerlyCore

/// `TradeRules.value` (quantity × price in minor units, rounded half to even) in integers, for
/// the cases where that is provably the same figure: a stored price in plain decimal digits, and
/// a product small enough that `Decimal`'s 38 digits hold it exactly, so its rounding is the
/// integer one. Anything else is left to `TradeRules.value`.
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
        let (product, overflow) = quantity.atto.multipliedReportingOverflow(by: significand)
        guard !overflow, product < exactLimit else { return nil }
        // value = product × 10^exponent / 10^(18 + decimals)
        let shift = Quantity.scale + decimals - exponent
        guard shift >= 0, shift <= 38 else { return nil }
        var divisor: Int128 = 1
        for _ in 0..<shift { divisor *= 10 }
        var quotient = product / divisor
        let twice = (product % divisor) * 2
        if twice > divisor || (twice == divisor && quotient % 2 == 1) { quotient += 1 }
        guard quotient < Int128(Money.maximumMinorUnits) else { return .some(nil) }
        return .some(Int64(quotient))
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
