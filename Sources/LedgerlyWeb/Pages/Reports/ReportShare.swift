import Foundation

/// A row's share of its whole in tenths of a percent, as `ledgerly report` prints it in its %
/// column and draws its bars: rounded half away from zero, 0 when there is no positive whole
/// (D572). Exact: the amounts are the store's decimals, never a Double.
enum ReportShare {
    static func tenths(_ part: Decimal, of whole: Decimal) -> Int {
        guard whole > 0 else { return 0 }
        var scaled = part.magnitude * 1_000 / whole
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        let magnitude = Int("\(rounded)") ?? 0
        return part < 0 ? -magnitude : magnitude
    }

    /// "12.5" from 125, "-1.5" from -15.
    static func text(tenths: Int) -> String {
        "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }
}
