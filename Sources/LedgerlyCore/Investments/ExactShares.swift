/// Exact integer shares of money by quantity, where the product of an amount (up to 10¹⁵ minor
/// units) and a quantity (up to 10³³ in 10⁻¹⁸ units) overflows 128 bits: the products are taken
/// at full width (256 bits) and divided back, so nothing is ever approximated.
public enum ExactShares {
    /// `amount × part / whole`, rounded half to even; `part` ≤ `whole`, `whole` > 0.
    public static func prorate(_ amount: Int64, part: Int128, whole: Int128) -> Int64 {
        precondition(whole > 0 && part >= 0 && part <= whole)
        if part == whole { return amount }
        let magnitude = Int128(amount.magnitude)
        let (quotient, remainder) = divide(magnitude, times: part, by: whole)
        var share = quotient
        let twice = remainder * 2  // remainder < whole ≤ 10³⁴: doubling fits.
        if twice > whole || (twice == whole && quotient % 2 == 1) { share += 1 }
        return Int64(amount < 0 ? -share : share)
    }

    /// Splits `amount` over `weights` in proportion, rounding down and giving the leftover minor
    /// units to the largest remainders (earlier weights first on ties), so the shares add up to
    /// `amount` exactly.
    public static func allocate(_ amount: Int64, weights: [Int128]) -> [Int64] {
        let total = weights.reduce(0, +)
        guard total > 0 else { return weights.map { _ in 0 } }
        let magnitude = Int128(amount.magnitude)
        var shares: [Int128] = []
        var remainders: [Int128] = []
        for weight in weights {
            let (quotient, remainder) = divide(magnitude, times: weight, by: total)
            shares.append(quotient)
            remainders.append(remainder)
        }
        var left = magnitude - shares.reduce(0, +)
        for index in remainders.indices.sorted(by: { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }) where left > 0 {
            shares[index] += 1
            left -= 1
        }
        return shares.map { Int64(amount < 0 ? -$0 : $0) }
    }

    /// (a × b) / c and its remainder, with the product at full width; the quotient must fit.
    private static func divide(_ a: Int128, times b: Int128, by c: Int128) -> (Int128, Int128) {
        let product = a.multipliedFullWidth(by: b)
        return c.dividingFullWidth(product)
    }
}
