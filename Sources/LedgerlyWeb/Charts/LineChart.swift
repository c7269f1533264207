import Foundation

/// A line chart drawn on the server as SVG (D513): y axis with labelled grid lines, the first and
/// last x labels, a dot per point with its value as a tooltip, and the last value written out.
/// The same figures follow as a table for screen readers and for anyone who wants the numbers.
public enum LineChart {
    public static let width: Decimal = 640
    public static let height: Decimal = 240
    static let left: Decimal = 72, right: Decimal = 16, top: Decimal = 16, bottom: Decimal = 28

    public static func svg(_ points: [ChartPoint], title: String, currency: String) -> HTML {
        guard !points.isEmpty else {
            return "<p class=\"empty\">No figures yet for \(title).</p>"
        }
        let x = ChartScale(low: 0, high: Decimal(max(points.count - 1, 1)), from: left, to: width - right)
        let y = ChartScale(covering: points.map(\.value), from: height - bottom, to: top)
        var parts: [HTML] = []
        let places = y.tickPlaces(count: 4)
        for tick in y.ticks(count: 4, places: places) {
            let position = y.pixel(tick)
            parts.append("<line class=\"grid\" x1=\"\(HTML(trusted: ChartScale.pixelText(left)))\" x2=\"\(HTML(trusted: ChartScale.pixelText(width - right)))\" y1=\"\(HTML(trusted: position))\" y2=\"\(HTML(trusted: position))\"/><text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(left - 6)))\" y=\"\(HTML(trusted: position))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(ChartFigures.label(tick, places: places))</text>")
        }
        let coordinates = points.enumerated().map { index, point in (x.pixel(Decimal(index)), y.pixel(point.value)) }
        let path = coordinates.map { "\($0.0),\($0.1)" }.joined(separator: " ")
        parts.append("<polyline class=\"line\" fill=\"none\" points=\"\(HTML(trusted: path))\"/>")
        for (point, coordinate) in zip(points, coordinates) {
            parts.append("<circle class=\"dot\" r=\"3\" cx=\"\(HTML(trusted: coordinate.0))\" cy=\"\(HTML(trusted: coordinate.1))\"><title>\(point.label): \(ChartFigures.exactLabel(point.value)) \(currency)</title></circle>")
        }
        let baseline = ChartScale.pixelText(height - 8)
        parts.append("<text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(left)))\" y=\"\(HTML(trusted: baseline))\">\(points[0].label)</text>")
        if points.count > 1 {
            parts.append("<text class=\"tick\" x=\"\(HTML(trusted: ChartScale.pixelText(width - right)))\" y=\"\(HTML(trusted: baseline))\" text-anchor=\"end\">\(points[points.count - 1].label)</text>")
        }
        return """
        <figure class="chart"><svg viewBox="0 0 640 240" role="img" aria-label="\(title)"><title>\(title)</title>\(parts)</svg>\
        <figcaption>\(title)</figcaption>\(ChartTable.table(points, currency: currency))</figure>
        """
    }
}
