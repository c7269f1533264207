@testable import LedgerlyCLI
import Testing

/// The net-worth chart of `ledgerly report networth`: drawn to a fixed width and height, its
/// labels the exact figures it was given, and the terminal size it takes.
@Suite struct NetWorthChartTests {
    static func points(_ pairs: (String, String)...) -> [LineChart.Point] { pairs.map { LineChart.Point(label: $0.0, value: $0.1) } }

    @Test func aRiseIsDrawnRowByRowToTheGivenSize() throws {
        // 30 columns: a 7-character gutter and the axis leave 21 plot columns; 6 lines: 4 plot
        // rows, the axis and the months. Column c of 0…20 sits on row round(3c/20): 0 for
        // c ≤ 3, 1 for 4…9, 2 for 10…16 (1.5 rounds up), 3 from 17.
        let chart = try #require(LineChart.render(Self.points(("2026-01", "1000.00"), ("2026-02", "1250.50")), width: 30, height: 6))
        #expect(chart == [
            "1250.50 ┤                ╭────",
            "        │         ╭──────╯",
            "        │   ╭─────╯",
            "1000.00 ┤───╯",
            "        └┬───────────────────┬",
            "         2026-01       2026-02",
        ])
    }

    @Test func aFallAndARiseTurnBothWays() throws {
        // 15 plot columns, points at 0, 7 and 14 on rows 0, 3 and round(3 × 0.5) = 2.
        let chart = try #require(LineChart.render(Self.points(("a", "100"), ("b", "200"), ("c", "150")), width: 20, height: 6))
        #expect(chart == [
            "200 ┤     ╭───╮",
            "    │   ╭─╯   ╰─────",
            "    │ ╭─╯",
            "100 ┤─╯",
            "    └┬──────┬──────┬",
            "     a      b      c",
        ])
    }

    @Test func aFlatSeriesSitsInTheMiddleWithOneLabel() throws {
        let chart = try #require(LineChart.render(Self.points(("a", "5"), ("b", "5")), width: 10, height: 4))
        #expect(chart == ["5 ┤───────", "  │", "  └┬─────┬", "   a     b"])
    }

    @Test func negativeFiguresAndTheirExactTextAreTheAxisLabels() throws {
        let chart = try #require(LineChart.render(Self.points(("2026-01", "-1200.50"), ("2026-02", "300.00"), ("2026-03", "-50.25")), width: 40, height: 8))
        #expect(chart.first?.hasPrefix("  300.00 ┤") == true, "\(chart)")
        #expect(chart[5].hasPrefix("-1200.50 ┤"), "\(chart)")
    }

    @Test func everyLineFitsTheWidthAndTheHeightIsExact() {
        let series = (1...40).map { LineChart.Point(label: "2026-\($0)", value: "\($0 * 37 % 11).\($0 % 10)0") }
        for (width, height) in [(80, 12), (40, 8), (120, 20), (24, 4)] {
            guard let chart = LineChart.render(series, width: width, height: height) else {
                Issue.record("no chart at \(width)×\(height)")
                continue
            }
            #expect(chart.count == height, "\(width)×\(height)")
            #expect(chart.allSatisfy { $0.count <= width }, "\(width)×\(height): \(chart)")
        }
    }

    @Test func moreMonthsThanColumnsAreSampledKeepingTheEnds() throws {
        // 100 months, 10 plot columns: months 0, 11, 22 … 99 are drawn, the first at the bottom left,
        // the last at the top right; only the two ends' labels fit.
        let series = (0..<100).map { LineChart.Point(label: "m\($0)", value: String($0)) }
        let chart = try #require(LineChart.render(series, width: 14, height: 5))
        #expect(chart[0] == "99 ┤      ╭───", "\(chart)")
        #expect(chart[2] == " 0 ┤──╯", "\(chart)")
        #expect(chart[4] == "    m0     m99", "\(chart)")
    }

    @Test func nothingIsDrawnWithoutTwoPointsOrRoom() {
        #expect(LineChart.render([], width: 80, height: 12) == nil)
        #expect(LineChart.render(Self.points(("a", "1")), width: 80, height: 12) == nil)
        #expect(LineChart.render(Self.points(("a", "1"), ("b", "1e5")), width: 80, height: 12) == nil)
        #expect(LineChart.render(Self.points(("a", "1"), ("b", "2")), width: 4, height: 12) == nil)
        #expect(LineChart.render(Self.points(("a", "1"), ("b", "2")), width: 80, height: 3) == nil)
    }

    @Test func theSizeComesFromTheEnvironmentThenTheTerminalThenEighty() {
        #expect(TerminalSize.resolve(columns: 100, rows: 50, measuredColumns: 120, measuredRows: 40) == TerminalSize(columns: 100, rows: 50))
        #expect(TerminalSize.resolve(columns: nil, rows: nil, measuredColumns: 120, measuredRows: 40) == TerminalSize(columns: 120, rows: 40))
        #expect(TerminalSize.resolve(columns: 0, rows: nil, measuredColumns: nil, measuredRows: 0) == TerminalSize(columns: 80, rows: 24))
        #expect(TerminalSize(columns: 80, rows: 24).chartHeight == 12)
        #expect(TerminalSize(columns: 80, rows: 10).chartHeight == 8)
        #expect(TerminalSize(columns: 80, rows: 100).chartHeight == 20)
    }
}
