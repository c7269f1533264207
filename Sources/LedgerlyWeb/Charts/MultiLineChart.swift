import Foundation

/// Up to three lines over the same labels (net worth, core and tangible by month), drawn on the
/// server as SVG like `LineChart` (D513, D573): one y axis covering every value and zero,
/// labelled grid lines, the first and last label, a dot per point with its value as a tooltip,
/// a key naming each line, and every figure in a table under it, one column per line, exactly
/// as given (the store's decimal text, not rounded).
public enum MultiLineChart {
    public struct Series: Sendable, Equatable {
        public let name: String
        /// The store's decimal text for each label; nil where a value is missing (not drawn).
        public let values: [String?]
        public init(name: String, values: [String?]) {
            self.name = name
            self.values = values
        }
    }

    /// The style classes of the lines, in order (the stylesheet colours them).
    static let kinds = ["first", "second", "third"]

    public static func svg(labels: [String], series: [Series], title: String, currency: String) -> HTML {
        let series = Array(series.prefix(kinds.count))
        let numbers = series.map { $0.values.map { $0.flatMap(ChartFigures.decimal) } }
        let all = numbers.flatMap { $0.compactMap { $0 } }
        guard !labels.isEmpty, !all.isEmpty else { return "<p class=\"empty\">No figures yet for \(title).</p>" }
        let width = LineChart.width, height = LineChart.height
        let right = LineChart.right, top = LineChart.top, bottom = LineChart.bottom
        let y = ChartScale(covering: all, from: height - bottom, to: top)
        let places = y.tickPlaces(count: 4)
        // Room for the longest y label ("263 721.17" at 18 px is wider than the usual 72 px).
        let longest = y.ticks(count: 4, places: places).map { ChartFigures.label($0, places: places).count }.max() ?? 0
        let left = Swift.max(LineChart.left, Decimal(longest * 11 + 12))
        let x = ChartScale(low: 0, high: Decimal(max(labels.count - 1, 1)), from: left, to: width - right)
        var parts: [HTML] = []
        for tick in y.ticks(count: 4, places: places) {
            let position = HTML(trusted: y.pixel(tick))
            parts.append("<line class=\"grid\" x1=\"\(HTML(trusted: ChartScale.pixelText(left)))\" x2=\"\(HTML(trusted: ChartScale.pixelText(width - right)))\" y1=\"\(position)\" y2=\"\(position)\"/><text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(left - 6)))\" y=\"\(position)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(ChartFigures.label(tick, places: places))</text>")
        }
        for (index, line) in series.enumerated() {
            let kind = kinds[index]
            let drawn = zip(labels.indices, numbers[index]).compactMap { position, value in value.map { (position, $0) } }
            let path = drawn.map { "\(x.pixel(Decimal($0.0))),\(y.pixel($0.1))" }.joined(separator: " ")
            parts.append("<polyline class=\"line \(kind)\" fill=\"none\" points=\"\(HTML(trusted: path))\"/>")
            for (position, value) in drawn {
                parts.append("<circle class=\"dot \(kind)\" r=\"3\" cx=\"\(HTML(trusted: x.pixel(Decimal(position))))\" cy=\"\(HTML(trusted: y.pixel(value)))\"><title>\(labels[position]) \(line.name): \(ChartFigures.exactLabel(value)) \(currency)</title></circle>")
            }
        }
        let baseline = HTML(trusted: ChartScale.pixelText(height - 8))
        parts.append("<text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(left)))\" y=\"\(baseline)\">\(labels[0])</text>")
        if labels.count > 1 {
            parts.append("<text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(width - right)))\" y=\"\(baseline)\" text-anchor=\"end\">\(labels[labels.count - 1])</text>")
        }
        let keys = series.enumerated().map { index, line -> HTML in "<span class=\"key line-\(kinds[index])\">\(line.name)</span>" }
        let heads = series.map { line -> HTML in "<th scope=\"col\" class=\"num\">\(line.name)</th>" }
        let rows = labels.enumerated().map { position, label -> HTML in
            let cells = series.map { line -> HTML in
                let value = position < line.values.count ? line.values[position] : nil
                return "<td class=\"num\">\(value ?? "–")</td>"
            }
            return "<tr><th scope=\"row\">\(label)</th>\(cells)</tr>"
        }
        return """
        <figure class="chart"><svg viewBox="0 0 640 240" role="img" aria-label="\(title)"><title>\(title)</title>\(parts)</svg>\
        <figcaption>\(title): \(HTML.join(keys, separator: " ")) (\(currency))</figcaption>\
        <details><summary>Figures</summary><div class="scroll"><table><thead><tr><th scope="col">Month</th>\(heads)</tr></thead><tbody>\(rows)</tbody></table></div></details></figure>
        """
    }
}
