import Foundation

/// One budget's month as a horizontal bar: spent against available, with marks at 50, 80 and
/// 100 % and the percentage written out (D513). Over 100 % the scale stretches so the bar still
/// ends where the spending does.
public enum BudgetBar {
    public static func svg(percent: Decimal, label: String) -> HTML {
        let end = Swift.max(Decimal(100), percent)
        let scale = ChartScale(low: 0, high: end, from: 0, to: 300)
        let filled = Swift.max(Decimal(0), percent)
        let level = percent >= 100 ? "over" : percent >= 80 ? "near" : "ok"
        var marks: [HTML] = []
        for mark in [50, 80, 100] {
            let position = HTML(trusted: scale.pixel(Decimal(mark)))
            marks.append("<line class=\"mark\" x1=\"\(position)\" x2=\"\(position)\" y1=\"0\" y2=\"20\"/>")
        }
        return "<svg class=\"budget\" viewBox=\"0 0 300 20\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(label)\"><title>\(label)</title><rect class=\"track\" x=\"0\" y=\"4\" width=\"300\" height=\"12\"/><rect class=\"fill \(level)\" x=\"0\" y=\"4\" width=\"\(HTML(trusted: scale.pixel(filled)))\" height=\"12\"/>\(marks)</svg>"
    }
}
