import FoundationEssentials

/// A progress line on standard error while long work runs: "importing ▕████▌    ▏ 45 % 4,500 of 10,000".
/// Drawn only when standard error is a terminal, so scripts and logs get no control characters.
struct Progress {
    private let title: String
    private let total: Int
    private let enabled: Bool
    private var lastDrawn = Date.distantPast

    init(_ title: String, total: Int) {
        self.title = title
        self.total = total
        self.enabled = CommandOutput.current.errorIsTerminal && total > 0
    }

    /// Redraws at most ten times a second.
    mutating func update(_ done: Int) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.1 || done >= total else { return }
        lastDrawn = Date()
        let tenths = total > 0 ? min(1_000, done * 1_000 / total) : 0
        let line = "\r\(title) ▕\(Bar.render(tenthsOfPercent: tenths, width: 24))▏ \(tenths / 10) % \(done) of \(total)"
        CommandOutput.current.writeError(line)
    }

    /// Clears the line: with the erase-line sequence, or with spaces on a `TERM=dumb` terminal,
    /// which knows no escape sequence.
    func finish() {
        guard enabled else { return }
        CommandOutput.current.writeError(Self.clearLine)
    }

    /// What clears the line a progress line was drawn on.
    static var clearLine: String {
        CommandOutput.current.terminalIsDumb ? "\r" + String(repeating: " ", count: 79) + "\r" : "\r\u{1B}[2K"
    }
}
