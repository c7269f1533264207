import Foundation

/// The figures of `ledgerly-bench ledger` at every scale of one run, printed at the end as one
/// table: a row per figure, a column per scale, then the target and whether the largest scale
/// met it. A limit of the machine is printed under the first figure that is read against it, and
/// each such figure's cell carries its share of the limit (a rate as a percentage of the limit's
/// rate, a time as a multiple of the limit's time), so "how far from the physics" is read off
/// the same line as the figure.
struct ScalingTable {
    /// A measured figure, or a lower bound (a peer stopped at `--peer-limit`).
    enum Cell: Hashable, Sendable {
        case value(Double)
        case moreThan(Double)

        var number: Double {
            switch self {
            case .value(let value), .moreThan(let value): value
            }
        }
    }

    private(set) var scales: [Int] = []
    /// In the order first recorded.
    private var figures: [ScalingFigure] = []
    private var cells: [ScalingFigure: [Int: Cell]] = [:]

    mutating func record(_ figure: ScalingFigure, _ value: Double, at scale: Int) {
        record(figure, .value(value), at: scale)
    }

    mutating func record(_ figure: ScalingFigure, _ cell: Cell, at scale: Int) {
        if !scales.contains(scale) { scales.append(scale) }
        if cells[figure] == nil { figures.append(figure) }
        cells[figure, default: [:]][scale] = cell
    }

    func cell(_ figure: ScalingFigure, at scale: Int) -> Cell? { cells[figure]?[scale] }

    /// Figures in insertion order, each limit moved under the first figure read against it.
    var rows: [ScalingFigure] {
        var placed: Set<String> = []
        var order: [ScalingFigure] = []
        let limits = Dictionary(figures.filter(\.isLimit).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for figure in figures where !figure.isLimit {
            order.append(figure)
            if let name = figure.limit, let limit = limits[name], placed.insert(name).inserted { order.append(limit) }
        }
        order += figures.filter { $0.isLimit && !placed.contains($0.name) }
        return order
    }

    /// "met", "NOT MET", or nil when the figure has no target or no value at the largest scale.
    func mark(_ figure: ScalingFigure) -> String? {
        guard let target = figure.target, let largest = scales.max(), let cell = cell(figure, at: largest) else { return nil }
        switch cell {
        case .value(let value): return target.isMet(by: value) ? "met" : "NOT MET"
        // A lower bound meets an "at least" target it already exceeds, never an "at most" one.
        case .moreThan(let value):
            if case .atLeast(let bound) = target, value >= bound { return "met" }
            return "NOT MET"
        }
    }

    /// The figure's share of its limit at `scale`: "12 %" of a rate, "19×" a time; nil without both.
    func share(_ figure: ScalingFigure, at scale: Int) -> String? {
        guard let name = figure.limit, let limit = figures.first(where: { $0.name == name }),
              let value = cell(figure, at: scale)?.number, let bound = cell(limit, at: scale)?.number, bound > 0
        else { return nil }
        if figure.unit == .perSecond && limit.unit == .perSecond { return String(format: "%.1f %%", value / bound * 100) }
        guard let ours = figure.unit.seconds, let theirs = limit.unit.seconds else { return nil }
        let times = value * ours / (bound * theirs)
        return String(format: times < 10 ? "%.1f×" : "%.0f×", times)
    }

    static func format(_ value: Double, _ unit: ScalingFigure.Unit) -> String {
        switch unit {
        case .milliseconds: String(format: value < 10 ? "%.2f ms" : "%.1f ms", value)
        case .seconds: String(format: value < 10 ? "%.2f s" : "%.1f s", value)
        case .microseconds: String(format: "%.0f µs", value)
        case .megabytes: String(format: "%.1f MB", value)
        case .perSecond: "\(grouped(Int(value.rounded())))/s"
        case .times: String(format: value < 10 ? "%.1f×" : "%.0f×", value)
        }
    }

    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    func text(_ figure: ScalingFigure, at scale: Int) -> String {
        guard let cell = cell(figure, at: scale) else { return "—" }
        let shown: String
        switch cell {
        case .value(let value): shown = Self.format(value, figure.unit)
        case .moreThan(let value): shown = "> " + Self.format(value, figure.unit)
        }
        return share(figure, at: scale).map { "\(shown) (\($0))" } ?? shown
    }

    /// "≤ 12 ms", "≥ 100,000/s": targets are round numbers, printed without decimals.
    static func describe(_ target: ScalingFigure.Target?, _ unit: ScalingFigure.Unit) -> String {
        func bound(_ value: Double) -> String { unit == .perSecond ? format(value, unit) : String(format: "%g %@", value, unit.rawValue) }
        switch target {
        case .atMost(let value): return "≤ " + bound(value)
        case .atLeast(let value): return "≥ " + bound(value)
        case nil: return ""
        }
    }

    /// The table as text, columns padded (by characters, so "µ" and "≤" count as one).
    var rendered: String {
        let largest = scales.max().map { Self.grouped($0) } ?? ""
        let header = ["figure"] + scales.map { Self.grouped($0) + " tx" } + ["target", "at \(largest)"]
        let lines = rows.map { figure in
            [(figure.isLimit ? "  ↳ " : "") + figure.name] + scales.map { text(figure, at: $0) }
                + [Self.describe(figure.target, figure.unit), mark(figure) ?? ""]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + lines.map(line)).joined(separator: "\n")
    }

    /// The same table for machines: every figure with its unit, target, limit and a value per scale.
    struct JSONTable: Codable {
        struct Row: Codable {
            let figure: String
            let unit: String
            let isLimit: Bool
            let limit: String?
            let target: String?
            /// Scale (as text, JSON keys being strings) → the figure; absent when not measured there.
            let values: [String: Double]
            /// Scales whose value is a lower bound (a peer stopped at the limit).
            let lowerBounds: [String]
            let shareOfLimit: [String: String]
            let markAtLargestScale: String?
        }
        let scales: [Int]
        let rows: [Row]
    }

    func json() throws -> Data {
        let table = JSONTable(scales: scales, rows: rows.map { figure in
            var values: [String: Double] = [:], bounds: [String] = [], shares: [String: String] = [:]
            for scale in scales {
                guard let cell = cell(figure, at: scale) else { continue }
                values[String(scale)] = cell.number
                if case .moreThan = cell { bounds.append(String(scale)) }
                shares[String(scale)] = share(figure, at: scale)
            }
            return .init(figure: figure.name, unit: figure.unit.rawValue, isLimit: figure.isLimit, limit: figure.limit,
                         target: figure.target == nil ? nil : Self.describe(figure.target, figure.unit),
                         values: values, lowerBounds: bounds, shareOfLimit: shares, markAtLargestScale: mark(figure))
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(table)
    }
}
