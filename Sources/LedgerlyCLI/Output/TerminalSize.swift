import FoundationEssentials
import Glibc

/// The size a terminal drawing may take: a chart fills the width and part of the height.
struct TerminalSize: Equatable, Sendable {
    let columns: Int
    let rows: Int

    /// Without a terminal (piped output, a test's collected output): a classic 80 × 24.
    static let fallback = TerminalSize(columns: 80, rows: 24)

    /// `COLUMNS`/`LINES` when set (as `ls` does, so a user or script can force a size), else the
    /// terminal's own size (ioctl TIOCGWINSZ on standard output), else 80 × 24. A test's output,
    /// which says its width (`CommandOutput.columns`), gets that width and 24 rows, whatever the
    /// environment of the test process.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalSize {
        let output = CommandOutput.current
        if let columns = output.columns { return TerminalSize(columns: columns, rows: fallback.rows) }
        var size = winsize()
        let measured = output.outputIsTerminal && ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0
        return resolve(
            columns: environment["COLUMNS"].flatMap(Int.init), rows: environment["LINES"].flatMap(Int.init),
            measuredColumns: measured ? Int(size.ws_col) : nil, measuredRows: measured ? Int(size.ws_row) : nil)
    }

    /// The rule of `current` without the system: each dimension from the environment if it is
    /// positive, else the measurement if positive, else the fallback.
    static func resolve(columns: Int?, rows: Int?, measuredColumns: Int?, measuredRows: Int?) -> TerminalSize {
        func pick(_ candidates: Int?..., otherwise: Int) -> Int { candidates.compactMap { $0 }.first { $0 > 0 } ?? otherwise }
        return TerminalSize(columns: pick(columns, measuredColumns, otherwise: fallback.columns), rows: pick(rows, measuredRows, otherwise: fallback.rows))
    }

    /// Rows for a chart under a table: half the terminal, between 8 and 20, so it reads at a
    /// glance on a small terminal and does not push the table off a tall one.
    var chartHeight: Int { max(8, min(20, rows / 2)) }
}
