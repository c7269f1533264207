import FoundationEssentials
import Glibc

/// A series drawn as a line over several terminal rows, for `ledgerly report networth`: months
/// along the bottom, the lowest and highest figure on the left, the line in box-drawing
/// characters (─ ╭ ╮ ╰ ╯ │) filling the width it is given.
///
/// Every number printed (the two axis labels, the month labels) is one of the exact strings it
/// was given; the figures are never rounded or re-formatted here. Only the line's position is
/// computed: the gap between a figure and the lowest one is taken exactly (`Decimal`), and its
/// share of the whole range becomes a `Double` to pick a row and to interpolate between months,
/// which is pixel placement, not money.
enum LineChart {
    struct Point: Equatable, Sendable {
        let label: String
        let value: String
    }

    /// The chart's lines, top to bottom, at most `width` characters wide and exactly `height`
    /// lines tall (plot rows, the axis, the month labels). Nil when there is nothing to draw a
    /// line through (fewer than two points, a value that is not a plain decimal) or too little
    /// room (fewer than 2 plot rows or 2 plot columns).
    static func render(_ points: [Point], width: Int, height: Int) -> [String]? {
        let values = points.compactMap { DecimalText.value($0.value) }
        guard points.count >= 2, values.count == points.count else { return nil }
        let lowIndex = values.indices.min { values[$0] < values[$1] }!, highIndex = values.indices.max { values[$0] < values[$1] }!
        let low = values[lowIndex], high = values[highIndex]
        let flat = low == high
        let gutter = max(points[lowIndex].value.count, points[highIndex].value.count)
        let plotWidth = width - gutter - 2, plotHeight = height - 2
        guard plotWidth >= 2, plotHeight >= 2 else { return nil }

        // More months than columns: sampled evenly, keeping the first and the last.
        let shown: [Int] = points.count <= plotWidth
            ? Array(points.indices) : (0..<plotWidth).map { $0 * (points.count - 1) / (plotWidth - 1) }
        let span = high - low
        let fractions: [Double] = shown.map { index in
            guard !flat else { return 0.5 }
            return Double(((values[index] - low) / span).description) ?? 0
        }
        let columns = shown.indices.map { Self.column(of: $0, count: shown.count, width: plotWidth) }
        let rows = Self.rows(fractions: fractions, columns: columns, width: plotWidth, height: plotHeight)

        // grid[row][column], row 0 at the bottom.
        var grid = Array(repeating: Array(repeating: Character(" "), count: plotWidth), count: plotHeight)
        for column in 0..<plotWidth {
            let here = rows[column]
            guard column + 1 < plotWidth, rows[column + 1] != here else {
                grid[here][column] = "─"
                continue
            }
            let next = rows[column + 1]
            for row in min(here, next) + 1..<max(here, next) { grid[row][column] = "│" }
            grid[here][column] = next > here ? "╯" : "╮"
            grid[next][column] = next > here ? "╭" : "╰"
        }

        var lines: [String] = []
        let labelRows: [Int: String] = flat
            ? [rows[0]: points[lowIndex].value] : [plotHeight - 1: points[highIndex].value, 0: points[lowIndex].value]
        for row in stride(from: plotHeight - 1, through: 0, by: -1) {
            let label = labelRows[row] ?? ""
            let line = String(repeating: " ", count: gutter - label.count) + label + " " + (label.isEmpty ? "│" : "┤") + String(grid[row])
            lines.append(line.trimmingTrailingSpaces())
        }
        let (axis, labels) = Self.monthAxis(shown.map { points[$0].label }, columns: columns, width: plotWidth)
        lines.append(String(repeating: " ", count: gutter + 1) + "└" + axis)
        lines.append((String(repeating: " ", count: gutter + 2) + labels).trimmingTrailingSpaces())
        return lines
    }

    /// The column of the `index`th of `count` points spread over `width` columns, the first at
    /// the left edge and the last at the right.
    static func column(of index: Int, count: Int, width: Int) -> Int {
        guard count > 1 else { return 0 }
        return Int((Double(index) * Double(width - 1) / Double(count - 1)).rounded())
    }

    /// The row of the line in every column: the points' rows, and straight between them.
    private static func rows(fractions: [Double], columns: [Int], width: Int, height: Int) -> [Int] {
        let top = Double(height - 1)
        var rows = Array(repeating: 0, count: width)
        for segment in 0..<fractions.count - 1 {
            let start = columns[segment], end = columns[segment + 1]
            for column in start...end {
                let share = end == start ? 0 : Double(column - start) / Double(end - start)
                let fraction = fractions[segment] + share * (fractions[segment + 1] - fractions[segment])
                rows[column] = max(0, min(height - 1, Int((fraction * top).rounded())))
            }
        }
        return rows
    }

    /// The x axis (a ┬ under each labelled point, or under every point when there is room) and
    /// the month labels below it: the first at the left, the last ending at the right edge, and
    /// as many in between as fit with two spaces apart.
    private static func monthAxis(_ labels: [String], columns: [Int], width: Int) -> (axis: String, labels: String) {
        var axis = Array(repeating: Character("─"), count: width)
        var text = Array(repeating: Character(" "), count: width)
        let last = labels.count - 1
        let lastStart = width - labels[last].count
        var end = -2
        for (index, label) in labels.enumerated() {
            let start = index == last ? lastStart : columns[index]
            let reserved = index == last ? width : lastStart - 2
            guard start >= end + 2, start >= 0, start + label.count <= reserved else { continue }
            for (offset, character) in label.enumerated() { text[start + offset] = character }
            axis[columns[index]] = "┬"
            end = start + label.count
        }
        if labels.count * 2 <= width { for column in columns { axis[column] = "┬" } }
        return (String(axis), String(text))
    }
}
