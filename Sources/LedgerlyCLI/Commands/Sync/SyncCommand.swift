import ArgumentParser

/// `ledgerly sync enable|status|now|disable|passphrase|rekey|devices`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync this ledger with your other devices through a PostgreSQL server you control.",
        discussion: """
            Off by default. Each device keeps its whole ledger; devices meet through a PostgreSQL database \
            you run (at home, on a VPS, or a managed one), which stores only encrypted change messages: \
            whoever runs it sees no amount, name or note. Nothing ever waits for sync: with the server \
            down, everything works as before and changes go out when it is back.
            Everything in the ledger is synced but fetched rates and prices, which each device fetches \
            itself. How conflicts made apart are settled: docs/sync.md.
            """,
        subcommands: [SyncEnableCommand.self, SyncStatusCommand.self, SyncNowCommand.self, SyncDisableCommand.self, SyncPassphraseCommand.self,
                       SyncRekeyCommand.self, SyncDevicesCommand.self])
}
