import Foundation

/// Paired bars per period (income and expenses of a month) against a labelled zero line, drawn
/// as SVG on the server (D513); each bar carries its value as a tooltip and the figures follow as
/// a table.
public enum BarChart {
    public struct Group: Sendable, Equatable {
        public let label: String
        public let first: Decimal
        public let second: Decimal
        public init(label: String, first: Decimal, second: Decimal) {
            self.label = label
            self.first = first
            self.second = second
        }
    }

    static let width: Decimal = 640, height: Decimal = 240
    static let left: Decimal = 72, right: Decimal = 8, top: Decimal = 16, bottom: Decimal = 28

    public static func svg(_ groups: [Group], title: String, names: (String, String), currency: String) -> HTML {
        guard !groups.isEmpty else { return "<p class=\"empty\">No figures yet for \(title).</p>" }
        let y = ChartScale(covering: groups.flatMap { [$0.first, $0.second] }, from: height - bottom, to: top)
        let slot = (width - left - right) / Decimal(groups.count)
        let bar = slot * Decimal(string: "0.4")!
        var parts: [HTML] = []
        let places = y.tickPlaces(count: 4)
        for tick in y.ticks(count: 4, places: places) {
            let position = HTML(trusted: y.pixel(tick))
            parts.append("<line class=\"grid\" x1=\"72\" x2=\"632\" y1=\"\(position)\" y2=\"\(position)\"/><text class=\"tick\" x=\"66\" y=\"\(position)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(ChartFigures.label(tick, places: places))</text>")
        }
        let zero = y.position(0)
        for (index, group) in groups.enumerated() {
            let start = left + slot * Decimal(index) + slot * Decimal(string: "0.1")!
            for (offset, value, kind, name) in [(Decimal(0), group.first, "first", names.0), (bar, group.second, "second", names.1)] {
                let edge = y.position(value)
                let topEdge = Swift.min(edge, zero), extent = Swift.max(edge, zero) - Swift.min(edge, zero)
                parts.append("<rect class=\"bar \(kind)\" x=\"\(HTML(trusted: ChartScale.pixelText(start + offset)))\" y=\"\(HTML(trusted: ChartScale.pixelText(topEdge)))\" width=\"\(HTML(trusted: ChartScale.pixelText(bar)))\" height=\"\(HTML(trusted: ChartScale.pixelText(extent)))\"><title>\(group.label) \(name): \(ChartFigures.exactLabel(value)) \(currency)</title></rect>")
            }
            // Every label when they fit, else every third month, so they never overlap.
            if groups.count <= 6 || index % 3 == 0 || index == groups.count - 1 {
                parts.append("<text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(start + bar)))\" y=\"232\" text-anchor=\"middle\">\(group.label)</text>")
            }
        }
        let rows = groups.map { group in
            HTML("<tr><th scope=\"row\">\(group.label)</th><td class=\"num\">\(ChartFigures.exactLabel(group.first))</td><td class=\"num\">\(ChartFigures.exactLabel(group.second))</td></tr>")
        }
        return """
        <figure class="chart"><svg viewBox="0 0 640 240" role="img" aria-label="\(title)"><title>\(title)</title>\(parts)</svg>\
        <figcaption>\(title): <span class="key first">\(names.0)</span> <span class="key second">\(names.1)</span> (\(currency))</figcaption>\
        <details><summary>Figures</summary><table><thead><tr><th scope="col">Month</th><th scope="col">\(names.0)</th><th scope="col">\(names.1)</th></tr></thead><tbody>\(rows)</tbody></table></details></figure>
        """
    }
}
