import Foundation

/// ANSI styling that is on only when the stream is a terminal and `NO_COLOR` is not set.
struct TerminalStyle {
    let enabled: Bool

    /// Asked of the run's output, which knows whether its streams are terminals (`CommandOutput`).
    static var standardOutput: TerminalStyle {
        TerminalStyle(enabled: CommandOutput.current.outputIsTerminal && CommandOutput.current.colorsAllowed)
    }
    static var standardError: TerminalStyle {
        TerminalStyle(enabled: CommandOutput.current.errorIsTerminal && CommandOutput.current.colorsAllowed)
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
