import FoundationEssentials
import LedgerlyFiles
import Glibc

/// Where a command's output goes. The `ledgerly` binary writes to its standard streams; a test
/// that runs a command line in-process (`LedgerlyCommand.run(arguments:output:)`) passes one that
/// collects the text instead, so a command can be tested without a process of its own.
///
/// It is bound for one run through a task-local rather than passed to every command: commands
/// are `ParsableCommand` values that swift-argument-parser creates, and a task-local keeps
/// concurrent in-process runs (parallel tests) apart without any global mutable state.
public struct CommandOutput: Sendable {
    /// Text for standard output as `print` writes it: through stdio's buffer in the binary.
    let printed: @Sendable (String) -> Void
    /// Bytes for standard output written at once (a follower's lines must not wait in a buffer).
    let written: @Sendable (Data) -> Void
    /// Bytes for standard error.
    let errors: @Sendable (Data) -> Void
    /// The progress line is drawn only on a terminal.
    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    /// Whether each stream gets ANSI colours (`ColorChoice`).
    let outputColored: Bool
    let errorColored: Bool
    /// `TERM=dumb`: a terminal that moves the cursor back (`\r`) but knows no escape sequence, so
    /// no colours and a progress line cleared with spaces.
    let terminalIsDumb: Bool
    /// Help text width; nil asks the terminal (80 when there is none), as the binary does.
    let columns: Int?

    /// The process's own streams: exactly what `ledgerly` wrote before this seam existed.
    public static var standard: CommandOutput {
        CommandOutput(
            printed: { Swift.print($0, terminator: "") },
            written: { try? PosixFile.standardOutput.write($0) },
            errors: { try? PosixFile.standardError.write($0) },
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            // One variable at a time by `getenv`: `ProcessInfo.environment` would copy the whole
            // environment into a dictionary, at every start of every command (D272).
            noColor: getenv("NO_COLOR").map { $0.pointee != 0 } ?? false,
            terminalIsDumb: getenv("TERM").map { String(cString: $0) == "dumb" } ?? false,
            columns: nil)
    }

    /// The process's streams under `choice`: `auto` colours a stream that is a terminal unless
    /// `NO_COLOR` is set to anything but the empty string (as no-color.org says) or `TERM` is
    /// `dumb`; `always` colours both, even into a pipe or file, whatever the environment (a flag
    /// the user typed overrides `NO_COLOR`, as its specification allows); `never` colours nothing.
    private init(printed: @escaping @Sendable (String) -> Void, written: @escaping @Sendable (Data) -> Void, errors: @escaping @Sendable (Data) -> Void,
                 outputIsTerminal: Bool, errorIsTerminal: Bool, noColor: Bool, terminalIsDumb: Bool, columns: Int?) {
        self.init(printed: printed, written: written, errors: errors, outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal,
                  outputColored: outputIsTerminal && !noColor && !terminalIsDumb, errorColored: errorIsTerminal && !noColor && !terminalIsDumb,
                  terminalIsDumb: terminalIsDumb, columns: columns)
    }

    /// This output with the colours `choice` asks for (`--color`); `auto` keeps what it has.
    func coloring(_ choice: ColorChoice) -> CommandOutput {
        guard choice != .auto else { return self }
        return CommandOutput(printed: printed, written: written, errors: errors, outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal,
                             outputColored: choice == .always, errorColored: choice == .always, terminalIsDumb: terminalIsDumb, columns: columns)
    }

    /// Output that is not a terminal (no colours, no progress line, help 80 columns wide), handed
    /// to `standardOutput` and `standardError` as it is written.
    public init(standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void) {
        self.init(
            printed: standardOutput,
            written: { standardOutput(String(decoding: $0, as: UTF8.self)) },
            errors: { standardError(String(decoding: $0, as: UTF8.self)) },
            outputIsTerminal: false, errorIsTerminal: false, outputColored: false, errorColored: false, terminalIsDumb: false, columns: 80)
    }

    private init(
        printed: @escaping @Sendable (String) -> Void, written: @escaping @Sendable (Data) -> Void, errors: @escaping @Sendable (Data) -> Void,
        outputIsTerminal: Bool, errorIsTerminal: Bool, outputColored: Bool, errorColored: Bool, terminalIsDumb: Bool, columns: Int?
    ) {
        self.printed = printed
        self.written = written
        self.errors = errors
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.outputColored = outputColored
        self.errorColored = errorColored
        self.terminalIsDumb = terminalIsDumb
        self.columns = columns
    }

    /// The output of the command running in this task (or thread); the process's streams outside
    /// `LedgerlyCommand.run(arguments:output:)`.
    @TaskLocal static var current: CommandOutput = .standard

    func writeOutput(_ text: String) { written(Data(text.utf8)) }

    func writeError(_ text: String) { errors(Data(text.utf8)) }
}

/// Shadows `Swift.print` inside this module, so every command's `print` goes to the output of the
/// run it belongs to without each of the many call sites naming it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    CommandOutput.current.printed(items.map { String(describing: $0) }.joined(separator: separator) + terminator)
}
