import Foundation

/// A word-sized line (a wallet's recent balances) with its last value written beside it; no
/// axes, the label says what it spans (D513).
public enum Sparkline {
    public static func svg(_ points: [ChartPoint], label: String) -> HTML {
        guard points.count > 1 else { return .empty }
        let x = ChartScale(low: 0, high: Decimal(points.count - 1), from: 1, to: 99)
        let y = ChartScale(covering: points.map(\.value), includeZero: false, from: 23, to: 1)
        let path = points.enumerated().map { "\(x.pixel(Decimal($0.offset))),\(y.pixel($0.element.value))" }.joined(separator: " ")
        return "<svg class=\"spark\" viewBox=\"0 0 100 24\" role=\"img\" aria-label=\"\(label)\"><title>\(label)</title><polyline fill=\"none\" points=\"\(HTML(trusted: path))\"/></svg>"
    }
}
