import FoundationEssentials

/// ANSI styling, on when the run's output says so for the stream: a terminal with `NO_COLOR`
/// unset or empty and `TERM` not `dumb`, or `--color always` (`CommandOutput.coloring`).
struct TerminalStyle {
    let enabled: Bool

    /// Asked of the run's output, which knows whether its streams are terminals (`CommandOutput`).
    static var standardOutput: TerminalStyle {
        TerminalStyle(enabled: CommandOutput.current.outputColored)
    }
    static var standardError: TerminalStyle {
        TerminalStyle(enabled: CommandOutput.current.errorColored)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }

    /// Colors a signed decimal amount: red when negative.
    func amount(_ text: String) -> String { text.hasPrefix("-") ? red(text) : text }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
