/// A chart's figures as a table under it (collapsed behind a `<details>`), so every value a
/// chart draws can be read exactly, also by a screen reader.
enum ChartTable {
    static func table(_ points: [ChartPoint], currency: String) -> HTML {
        let rows = points.map { point in
            HTML("<tr><th scope=\"row\">\(point.label)</th><td class=\"num\">\(ChartFigures.exactLabel(point.value)) \(currency)</td></tr>")
        }
        return "<details><summary>Figures</summary><table><tbody>\(rows)</tbody></table></details>"
    }
}
