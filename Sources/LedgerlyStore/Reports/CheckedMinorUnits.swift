import LedgerlyProtocol

/// Sums of minor units that refuse to overflow instead of trapping. Each amount is accepted up to
/// 10¹⁵ minor units, so a sum of many thousands (a category's total, net worth) could pass Int64; the store
/// must then refuse the write or the report with an error, never stop.
enum CheckedMinorUnits {
    static let tooLarge = LedgerError.invalid("these amounts are too large: a total would pass 9223372036854775807 minor units, the most Ledgerly can keep")

    static func add(_ left: Int64, _ right: Int64) throws -> Int64 {
        let (sum, overflow) = left.addingReportingOverflow(right)
        if overflow { throw tooLarge }
        return sum
    }

    static func sum(_ values: some Sequence<Int64>) throws -> Int64 {
        try values.reduce(0) { try add($0, $1) }
    }

    /// `left − right`.
    static func subtract(_ left: Int64, _ right: Int64) throws -> Int64 {
        let (difference, overflow) = left.subtractingReportingOverflow(right)
        if overflow { throw tooLarge }
        return difference
    }
}
