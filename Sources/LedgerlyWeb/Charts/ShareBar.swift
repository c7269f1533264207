import Foundation

/// A part of a whole as a thin horizontal bar (a category's share of spending, a payee's of
/// the largest), drawn from tenths of a percent (D513, D572): 0 draws nothing, 1000 and more
/// the whole width, a negative share (a refund larger than the spending) nothing. The label
/// says what it shows for a screen reader; the figure itself is written beside it.
public enum ShareBar {
    public static func svg(tenths: Int, label: String) -> HTML {
        let clamped = Swift.max(0, Swift.min(1_000, tenths))
        let width = ChartScale(low: 0, high: 1_000, from: 0, to: 100).pixel(Decimal(clamped))
        return "<svg class=\"share\" viewBox=\"0 0 100 12\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(label)\"><title>\(label)</title><rect class=\"track\" x=\"0\" y=\"2\" width=\"100\" height=\"8\"/><rect class=\"fill\" x=\"0\" y=\"2\" width=\"\(HTML(trusted: width))\" height=\"8\"/></svg>"
    }
}
