import ArgumentParser
import LedgerlyRuntime

/// `ledgerly`: the command people type. One process per command; it talks to the services over
/// their sockets and never opens the database.
public struct LedgerlyCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "ledgerly",
        abstract: "A multi-currency personal-finance ledger.",
        discussion: """
            Start the services (deploy/start.sh in a source checkout, or their systemd user units), then run `ledgerly setup` once.
            Read commands take --json. Data lives in $LEDGERLY_HOME (default ~/.local/share/ledgerly).

            \(ExitStatus.helpText)
            """,
        version: LedgerlyVersion.current,
        subcommands: [
            SetupCommand.self, SettingsCommand.self, WalletCommand.self, CategoryCommand.self, TagCommand.self,
            TransactionCommand.self, RatesCommand.self, ConvertCommand.self, BudgetCommand.self, GoalCommand.self, RecurringCommand.self, AlertsCommand.self,
            ReportCommand.self, ImportCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self, LogCommand.self, StatusCommand.self,
        ])

    public init() {}
}
