import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly report networth`: the monthly snapshots as they were taken, optionally beside the
/// figures computed again from today's data, and a chart of one figure over the months
/// (`networth.snapshot.list`, docs/networth.md).
struct ReportNetWorthCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "networth", abstract: "Net worth at the end of each month (the stored snapshots), with a chart.",
        discussion: """
            A snapshot holds a month's figures as they were at its end; it never changes, whatever is recorded later. \
            `ledgerly-alerts` takes each ended month's snapshot (on start and on every schedule tick; months missed \
            while it was down are taken afterwards, from history). --recompute puts beside each the figure computed \
            from today's data for the same moment, marked ≠ where they differ (a back-dated entry, a new rate); the \
            snapshot itself is kept. The chart shows net worth, or core (without volatile assets and speculative \
            holdings) or tangible (cash and tangible assets, less liabilities); it fills the terminal's width \
            (COLUMNS, else the terminal's size, else 80 columns).
            Example: ledgerly report networth --from 2026-01 --to 2026-12 --core
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: ReportOutputOptions
    @Option(parsing: .unconditional, help: "First month, YYYY-MM, or a day's month (default: the first snapshot).", transform: DayOptions.month) var from: String?
    @Option(parsing: .unconditional, help: "Last month, YYYY-MM, or a day's month (default: the last snapshot).", transform: DayOptions.month) var to: String?
    @Flag(help: "Chart core net worth (without volatile assets and speculative holdings).") var core = false
    @Flag(help: "Chart tangible net worth (cash and tangible assets, less liabilities).") var tangible = false
    @Flag(help: "Also compute each month again from today's data and mark where it differs (slower).") var recompute = false
    @Flag(name: .customLong("no-chart"), help: "Only the table.") var noChart = false

    /// The figure charted (and set beside its recomputed value).
    enum Measure {
        case netWorth, core, tangible

        var title: String {
            switch self {
            case .netWorth: "Net worth"
            case .core: "Core net worth"
            case .tangible: "Tangible net worth"
            }
        }

        func value(_ figures: NetWorthFigures) -> String {
            switch self {
            case .netWorth: figures.netWorth
            case .core: figures.core
            case .tangible: figures.tangible
            }
        }
    }

    var measure: Measure { core ? .core : tangible ? .tangible : .netWorth }

    func validate() throws {
        if core && tangible { throw ValidationError("--core and --tangible: chart one of them") }
        try DayOptions.checkOrder(from: from, to: to)
    }

    func reply(from gateway: Gateway) throws -> NetWorthSnapshotListReply {
        return try gateway.call(NetWorthSnapshotListRequest(from: from, to: to, recompute: recompute ? true : nil))
    }

    func render(_ reply: NetWorthSnapshotListReply, gateway: Gateway) throws {
        if output.csv { return Self.csv(reply, recompute: recompute).print() }
        print(Self.text(reply, measure: measure, recompute: recompute, chartSize: noChart ? nil : TerminalSize.current()), terminator: "")
    }

    /// One row per snapshot: the stored figures, then (with --recompute) the recomputed ones.
    static func csv(_ reply: NetWorthSnapshotListReply, recompute: Bool) -> CSVOutput {
        let names = ["net_worth", "core", "tangible", "volatile", "total_assets", "total_liabilities"]
        var header = ["month", "date", "base_currency"] + names + ["complete", "taken_at", "not_valued"]
        if recompute { header += names.map { "recomputed_" + $0 } + ["differs"] }
        var csv = CSVOutput(header: header)
        for snapshot in reply.snapshots {
            var fields = [snapshot.month, snapshot.date, snapshot.baseCurrency] + values(snapshot.figures) + [snapshot.complete ? "yes" : "no", snapshot.takenAt, (snapshot.notValued ?? []).joined(separator: "; ")]
            if recompute {
                fields += snapshot.recomputed.map(values) ?? Array(repeating: "", count: names.count)
                fields.append(snapshot.differs.map { $0 ? "yes" : "no" } ?? "")
            }
            csv.add(fields)
        }
        return csv
    }

    private static func values(_ figures: NetWorthFigures) -> [String] {
        [figures.netWorth, figures.core, figures.tangible, figures.volatile, figures.totalAssets, figures.totalLiabilities]
    }

    /// The table, the chart (when `chartSize` is given and there are two months or more) and
    /// what is missing, as printed.
    static func text(_ reply: NetWorthSnapshotListReply, measure: Measure, recompute: Bool, chartSize: TerminalSize?) -> String {
        let style = TerminalStyle.standardOutput
        var text = ""
        guard let first = reply.snapshots.first, let last = reply.snapshots.last else {
            text += "No net-worth snapshots yet. `ledgerly-alerts` takes one at the end of every month (and back-fills the months "
                + "since your first record when it starts); `ledgerly networth` shows today's figures.\n"
            if !reply.missing.isEmpty { text += "Months waiting for their snapshot: \(months(reply.missing)).\n" }
            return text
        }
        text += style.bold("Net worth at the end of each month") + ", in \(first.baseCurrency)\n"
        var columns: [Table.Column] = [.init("MONTH"), .init("NET WORTH", .right), .init("CORE", .right), .init("TANGIBLE", .right), .init("VOLATILE", .right),
                                       .init("ASSETS", .right), .init("LIABILITIES", .right)]
        if recompute { columns += [.init("NOW: " + measure.title.uppercased(), .right), .init("")] }
        columns.append(.init("NOTE"))
        var table = Table(columns)
        for snapshot in reply.snapshots {
            let figures = snapshot.figures
            var cells = [snapshot.month, figures.netWorth, figures.core, figures.tangible, figures.volatile, figures.totalAssets, figures.totalLiabilities]
            if recompute { cells += [snapshot.recomputed.map(measure.value) ?? "", snapshot.differs == true ? "≠" : ""] }
            cells.append(snapshot.complete ? "" : "not complete")
            let markColumn = cells.count - 2
            table.add(cells) { column, text in
                if recompute && column == markColumn { return style.yellow(text) }
                if column == cells.count - 1 { return style.yellow(text) }
                return (1...3).contains(column) ? style.amount(text) : text
            }
        }
        text += table.render(style: style)
        if recompute && reply.snapshots.contains(where: { $0.differs == true }) {
            text += style.dim("≠ computed from today's data the month differs in at least one figure (every one: --csv); something dated in it was recorded or "
                                + "changed later. The snapshot is kept as taken.") + "\n"
        }
        let incomplete = reply.snapshots.filter { !$0.complete }
        if !incomplete.isEmpty {
            text += style.yellow("Not complete: not valued at the month's end (no price or rate), so left out of its figures, never counted as 0:") + "\n"
            for snapshot in incomplete {
                let names = snapshot.notValued ?? []
                text += style.yellow("  \(snapshot.month): \(names.isEmpty ? "see `ledgerly report networth --json` for the warnings" : names.joined(separator: ", "))") + "\n"
            }
        }
        if let size = chartSize {
            let points = reply.snapshots.map { LineChart.Point(label: $0.month, value: measure.value($0.figures)) }
            if let chart = LineChart.render(points, width: size.columns, height: size.chartHeight) {
                text += "\n" + style.bold(measure.title) + " (\(first.baseCurrency)), \(first.month) to \(last.month)\n" + chart.joined(separator: "\n") + "\n"
                if !incomplete.isEmpty {
                    text += style.yellow("Not complete (something left out, not valued): \(months(incomplete.map(\.month)))") + "\n"
                }
            } else if points.count < 2 {
                text += style.dim("\nThe chart needs two months or more.") + "\n"
            }
        }
        if !reply.missing.isEmpty {
            text += style.dim("Months without a snapshot yet (ledgerly-alerts takes them): \(months(reply.missing)).") + "\n"
        }
        return text
    }

    /// A list of months, shortened in the middle when long.
    static func months(_ months: [String]) -> String {
        months.count <= 6 ? months.joined(separator: ", ") : (months.prefix(3) + ["…"] + months.suffix(2)).joined(separator: ", ")
    }
}
