import Foundation

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
    /// The progress line is drawn only on a terminal; colours also need `NO_COLOR` unset.
    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    let colorsAllowed: Bool
    /// Help text width; nil asks the terminal (80 when there is none), as the binary does.
    let columns: Int?

    /// The process's own streams: exactly what `ledgerly` wrote before this seam existed.
    public static var standard: CommandOutput {
        CommandOutput(
            printed: { Swift.print($0, terminator: "") },
            written: { FileHandle.standardOutput.write($0) },
            errors: { FileHandle.standardError.write($0) },
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            // One variable by `getenv`: `ProcessInfo.environment` would copy the whole
            // environment into a dictionary, at every start of every command (D272).
            colorsAllowed: getenv("NO_COLOR") == nil,
            columns: nil)
    }

    /// Output that is not a terminal (no colours, no progress line, help 80 columns wide), handed
    /// to `standardOutput` and `standardError` as it is written.
    public init(standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void) {
        self.init(
            printed: standardOutput,
            written: { standardOutput(String(decoding: $0, as: UTF8.self)) },
            errors: { standardError(String(decoding: $0, as: UTF8.self)) },
            outputIsTerminal: false, errorIsTerminal: false, colorsAllowed: false, columns: 80)
    }

    private init(
        printed: @escaping @Sendable (String) -> Void, written: @escaping @Sendable (Data) -> Void, errors: @escaping @Sendable (Data) -> Void,
        outputIsTerminal: Bool, errorIsTerminal: Bool, colorsAllowed: Bool, columns: Int?
    ) {
        self.printed = printed
        self.written = written
        self.errors = errors
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.colorsAllowed = colorsAllowed
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
