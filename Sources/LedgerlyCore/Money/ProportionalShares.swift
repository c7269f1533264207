/// Shares of an amount in proportion to parts, exact to the minor unit.
///
/// Used wherever one converted amount is spread over a split transaction's parts (budgets,
/// reports, the journal export), so every place gives each part the same share.
public enum ProportionalShares {
    /// Splits a signed amount (minor units) over `parts` (positive minor units adding up to
    /// `total`) in proportion to them, rounding down and giving the leftover minor units to the
    /// largest remainders (earlier parts first on ties), so the shares add up to `amount` exactly.
    public static func allocate(_ amount: Int64, parts: [Int64], total: Int64) -> [Int64] {
        guard total > 0, !parts.isEmpty else { return parts.map { _ in 0 } }
        // One part that is the whole: every transaction that is not split. The general way
        // below gives the same share, through six arrays and a sort.
        if parts.count == 1 && parts[0] == total { return [amount] }
        let magnitude = Int128(amount.magnitude)
        var shares = parts.map { magnitude * Int128($0) / Int128(total) }
        let remainders = parts.map { magnitude * Int128($0) % Int128(total) }
        var left = magnitude - shares.reduce(0, +)
        for index in remainders.indices.sorted(by: { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }) where left > 0 {
            shares[index] += 1
            left -= 1
        }
        return shares.map { Int64(amount < 0 ? -$0 : $0) }
    }
}
