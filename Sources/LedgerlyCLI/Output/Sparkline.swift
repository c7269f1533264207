// `_NSDecimalRound`, the rounding behind Foundation's `NSDecimalRound` (D380).
@_spi(SwiftCorelibsFoundation) import FoundationEssentials
import Glibc

/// A price series drawn in one line of block characters (▁▂▃▄▅▆▇█), lowest price to highest:
/// how an asset moved over the last 72 hours at a glance, beside its holding or price history.
/// Drawn only on a terminal; `--json` and piped output never carry it.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The line for `prices` (decimal strings, oldest first), at most `width` cells: a longer
    /// series is sampled evenly, keeping its first and last point. Nil for fewer than two points
    /// (one price is no movement) or a price that is not a plain decimal.
    static func render(_ prices: [String], width: Int = 24) -> String? {
        let values = prices.compactMap(DecimalText.value)
        guard values.count >= 2, values.count == prices.count, width >= 2 else { return nil }
        let sampled = values.count <= width ? values : (0..<width).map { values[$0 * (values.count - 1) / (width - 1)] }
        guard let low = sampled.min(), let high = sampled.max() else { return nil }
        let span = high - low
        return String(sampled.map { value -> Character in
            // A flat series sits in the middle rather than on the floor.
            guard span > 0 else { return blocks[3] }
            var level = (value - low) / span * Decimal(blocks.count - 1)
            var rounded = Decimal()
            _NSDecimalRound(&rounded, &level, 0, .plain)
            return blocks[max(0, min(blocks.count - 1, Int(rounded.description) ?? 0))]
        })
    }
}
