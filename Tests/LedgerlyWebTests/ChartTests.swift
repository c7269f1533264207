import Foundation
import LedgerlyWeb
import Testing

@Suite struct ChartTests {
    static func decimal(_ text: String) -> Decimal { Decimal(string: text)! }

    @Test func scaleMapsExactlyAndRoundsOnlyThePixel() {
        let scale = ChartScale(low: 0, high: 3, from: 200, to: 0)
        // 1/3 of 200 px from the bottom: exact arithmetic until the last step.
        #expect(scale.pixel(1) == "133.3")
        #expect(scale.pixel(0) == "200")
        #expect(scale.pixel(3) == "0")
    }

    @Test func scaleCoversZeroAndWidensAFlatSeries() {
        let positive = ChartScale(covering: [Self.decimal("10.5"), Self.decimal("20")], from: 100, to: 0)
        #expect(positive.low == 0)
        #expect(positive.high == 20)
        let flat = ChartScale(covering: [5, 5], includeZero: false, from: 100, to: 0)
        #expect(flat.low == 5)
        #expect(flat.high == 6)
    }

    /// Amounts past what a Double holds exactly keep every digit in the labels.
    /// The figures tables and tooltips show a three-decimal amount without rounding it.
    @Test func figuresTablesKeepEveryDecimal() {
        #expect(ChartFigures.exactLabel(Self.decimal("1234.567")) == "1\u{2009}234.567")
        #expect(ChartFigures.exactLabel(Self.decimal("5")) == "5.00")
        let table = LineChart.svg([ChartPoint(label: "2026-11", value: Self.decimal("0.125"))], title: "Net worth", currency: "KWD").markup
        #expect(table.contains(">0.125 KWD<"))
        let bars = BarChart.svg([BarChart.Group(label: "2026-11", first: Self.decimal("10.005"), second: 0)], title: "Cash flow", names: ("Income", "Expenses"), currency: "KWD").markup
        #expect(bars.contains(">10.005<"))
    }

    @Test func labelsKeepEveryDigit() {
        #expect(ChartFigures.label(Self.decimal("12345678901234567.89")) == "12\u{2009}345\u{2009}678\u{2009}901\u{2009}234\u{2009}567.89")
        #expect(ChartFigures.label(Self.decimal("-1234.5")) == "-1\u{2009}234.50")
        #expect(ChartFigures.label(Self.decimal("0.1") + Self.decimal("0.2")) == "0.30")
        #expect(ChartFigures.decimal("0.1") == Self.decimal("0.1"))
        #expect(ChartFigures.decimal("1e5") == nil)
        #expect(ChartFigures.decimal("") == nil)
    }

    @Test func ticksAreEvenAndRounded() {
        let scale = ChartScale(low: 0, high: 1000, from: 200, to: 0)
        #expect(scale.ticks(count: 4, places: 0) == [0, 250, 500, 750, 1000])
    }

    @Test func lineChartDrawsEveryPointWithItsValue() {
        let points = [ChartPoint(label: "2026-10", value: 100), ChartPoint(label: "2026-11", value: Self.decimal("250.5")), ChartPoint(label: "now", value: 200)]
        let svg = LineChart.svg(points, title: "Net worth", currency: "EUR").markup
        // x: 72…624 px; y: 0…250.5 over 212…16 px, so 100 sits 78.24 px above the bottom.
        #expect(svg.contains("points=\"72,133.8 348,16 624,55.5\""))
        #expect(svg.contains("<title>2026-11: 250.50 EUR</title>"))
        #expect(svg.contains(">2026-10</text>"))
        #expect(svg.contains(">now</text>"))
        // The figures follow as a table.
        #expect(svg.contains("<th scope=\"row\">2026-11</th><td class=\"num\">250.50 EUR</td>"))
    }

    @Test func chartTextIsEscaped() {
        let svg = LineChart.svg([ChartPoint(label: "<script>", value: 1)], title: "a\"b", currency: "<x>").markup
        #expect(!svg.contains("<script>"))
        #expect(svg.contains("&lt;script&gt;"))
        #expect(svg.contains("aria-label=\"a&quot;b\""))
    }

    @Test func barsStandOnTheZeroLine() {
        let svg = BarChart.svg([BarChart.Group(label: "2026-11", first: 300, second: -100)], title: "Cash flow", names: ("Income", "Expenses"), currency: "EUR").markup
        // Scale -100…300 over 212…16 px: zero at 163, 300 at 16, -100 at 212.
        #expect(svg.contains("y=\"16\" width=\"224\" height=\"147\""))
        #expect(svg.contains("y=\"163\" width=\"224\" height=\"49\""))
        #expect(svg.contains("<title>2026-11 Expenses: -100.00 EUR</title>"))
    }

    @Test func budgetBarMarksFiftyEightyAndHundred() {
        let near = BudgetBar.svg(percent: Self.decimal("85.5"), label: "Food").markup
        #expect(near.contains("class=\"fill near\" x=\"0\" y=\"4\" width=\"256.5\""))
        for mark in ["x1=\"150\"", "x1=\"240\"", "x1=\"300\""] { #expect(near.contains(mark)) }
        // Over the limit the scale stretches: 100 % sits at 200 of 300 px when 150 % is spent.
        let over = BudgetBar.svg(percent: 150, label: "Food").markup
        #expect(over.contains("class=\"fill over\" x=\"0\" y=\"4\" width=\"300\""))
        #expect(over.contains("x1=\"200\""))
    }

    @Test func sparklineNeedsTwoPoints() {
        #expect(Sparkline.svg([ChartPoint(label: "a", value: 1)], label: "x") == .empty)
        #expect(Sparkline.svg([ChartPoint(label: "a", value: 1), ChartPoint(label: "b", value: 3)], label: "x").markup.contains("points=\"1,23 99,1\""))
    }

    @Test func emptySeriesSaysSo() {
        #expect(LineChart.svg([], title: "Net worth", currency: "EUR").markup.contains("No figures yet"))
    }
}
