import ArgumentParser
import LedgerlyRuntime

/// `ledgerly`: the command people type. One process per command; it talks to the services over
/// their sockets and never opens the database.
public struct LedgerlyCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "ledgerly",
        abstract: "A multi-currency personal-finance ledger.",
        discussion: """
            Run `ledgerly setup` once. A command that needs the store starts the services when none runs for its home (through their systemd user units when installed, else the programs beside ledgerly, logging to the home's log folder) and waits for them; --no-start or LEDGERLY_NO_START=1 refuses instead. `status`, `restore`, --help and --version start nothing.
            Read commands take --json. Data lives in $LEDGERLY_HOME (default ~/.local/share/ledgerly).

            \(ExitStatus.helpText)
            """,
        version: LedgerlyVersion.current,
        subcommands: [
            SetupCommand.self, SettingsCommand.self, WalletCommand.self, CategoryCommand.self, TagCommand.self,
            TransactionCommand.self, RatesCommand.self, ConvertCommand.self, BudgetCommand.self, GoalCommand.self, RecurringCommand.self, AlertsCommand.self,
            InvestCommand.self, AssetCommand.self, LiabilityCommand.self, NetWorthCommand.self, ReportCommand.self, ImportCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self, LogCommand.self, StatusCommand.self, SyncCommand.self, ConfigCommand.self,
            WebCommand.self,
        ])

    public init() {}

    /// Parses and runs one command line (without the program name) and returns its exit status,
    /// writing what `main()` would print to `output`: the binary runs through here, and so can a
    /// test, in-process, with output it collects. Parse errors and help go where
    /// swift-argument-parser's `exit(withError:)` sends them (help to standard output, errors to
    /// standard error), with the same exit codes.
    public static func run(arguments: [String], output: CommandOutput = .standard) -> Int32 {
        CommandOutput.$current.withValue(output) {
            do {
                var command = try parseAsRoot(arguments)
                let choice = GlobalOptions.of(command)?.color ?? .auto
                // No progress line while a command prints JSON (D615).
                let quiet = arguments.contains("--json")
                try ServiceStarter.$quiet.withValue(quiet) {
                    try CommandOutput.$current.withValue(output.coloring(choice)) { try command.run() }
                }
                return ExitCode.success.rawValue
            } catch {
                let status = exitCode(for: error)
                var text = fullMessage(for: error, columns: output.columns)
                if status.rawValue == ExitStatus.usage.rawValue, let suggestion = CommandSuggestion.message(for: arguments, root: Self.self) {
                    text = "Error: \(suggestion)\n" + text
                }
                if !text.isEmpty {
                    if status == .success { output.printed(text + "\n") } else { output.writeError(text + "\n") }
                }
                return status.rawValue
            }
        }
    }
}
