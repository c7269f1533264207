import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly sync enable --url URL [--passphrase-file F] [--merge] [--ledger ID]`
struct SyncEnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Start syncing with the hub at URL (the first device creates the ledger there; the next ones join it).",
        discussion: """
            The first device makes the ledger on the hub and sends everything it holds. Another device joins \
            that ledger and receives it, settings included: join from a new home, even before `ledgerly setup`.
            A device that already holds a ledger of its own is refused unless you say --merge (its ledger is \
            then sent beside the hub's; same-named wallets and categories are renamed "Name (2)").
            The passphrase encrypts everything on the hub: every device needs the same one, and it cannot be \
            recovered. It is read from --passphrase-file (first line), else asked for at the terminal.
            URL: postgres://user:password@host:5432/database, with ?sslmode=require for TLS.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The hub: postgres://user:password@host:port/database[?sslmode=require].") var url: String
    @Option(name: .customLong("passphrase-file"), help: "A file whose first line is the sync passphrase (else you are asked).") var passphraseFile: String?
    @Flag(help: "Join although this device holds a ledger of its own, sending it beside the hub's.") var merge = false
    @Option(help: "The hub ledger to join when the hub holds several (its id).") var ledger: String?

    func run() throws {
        try CommandRunner.run {
            let passphrase = try PassphraseInput.read(file: passphraseFile)
            let gateway = try Gateway(global, wording: FieldWording(["url": "--url", "passphrase": "--passphrase-file", "mode": "--merge", "ledgerId": "--ledger"]))
            // Deriving the key (scrypt) and a first upload take seconds.
            let status = try gateway.callSync(SyncConnectRequest(url: url, passphrase: passphrase, merge: merge ? true : nil, ledgerId: ledger), patientMilliseconds: 120_000)
            if output.json { return try JSONOutput.print(status) }
            print("Sync is on: ledger \(status.ledgerId ?? "-") on \(status.hub ?? "-"), this device \(status.deviceId ?? "-").")
            print("Changes go out and come in in the background; `ledgerly sync status` shows how far it is.")
        }
    }
}
