/// Percentages as people read them: one decimal, rounded half to even, from exact integers.
enum Percentage {
    /// `part` as a percentage of `whole` (> 0), e.g. "80.0".
    static func oneDecimal(_ part: Int64, of whole: Int64) -> String {
        guard whole > 0 else { return "0.0" }
        let scaled = Int128(part) * 1_000
        var tenths = scaled / Int128(whole)
        let remainder = (scaled % Int128(whole)).magnitude * 2
        if remainder > UInt128(whole) || (remainder == UInt128(whole) && tenths % 2 != 0) { tenths += scaled < 0 ? -1 : 1 }
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }
}
