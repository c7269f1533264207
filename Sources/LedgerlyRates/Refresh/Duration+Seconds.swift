import Foundation

extension Duration {
    /// Whole and fractional seconds, for `Date` arithmetic.
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
