import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly sync enable --url URL [--password-file F] [--passphrase-file F] [--merge] [--ledger ID]`
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
            recovered. It is read from --passphrase-file (first line), else asked for at the terminal. A new \
            ledger needs a strong one (60 bits by Ledgerly's estimate: five random words); \
            `ledgerly sync passphrase suggest` makes one.
            URL: postgres://user@host:5432/database. The connection uses TLS with the hub's certificate \
            verified (against the system's roots, or add ?sslrootcert=/path/ca.pem for your own CA or a \
            self-signed hub); plain TCP only with ?sslmode=disable, spelt out. The hub's password is never \
            taken in --url (every local user sees a command line, and the shell keeps it): give \
            --password-file F, or put a line in ~/.pgpass (or $PGPASSFILE, or ?passfile=/path) as libpq \
            reads it, or type it when asked at the terminal.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The hub: postgres://user@host:port/database[?sslrootcert=/path/ca.pem] (no password here).") var url: String
    @Option(name: .customLong("password-file"), help: "A file whose first line is the hub user's password (else ~/.pgpass, else you are asked).", completion: .file()) var passwordFile: String?
    @Option(name: .customLong("passphrase-file"), help: "A file whose first line is the sync passphrase (else you are asked).", completion: .file()) var passphraseFile: String?
    @Flag(help: "Join although this device holds a ledger of its own, sending it beside the hub's.") var merge = false
    @Option(help: "The hub ledger to join when the hub holds several (its id).") var ledger: String?

    func run() throws {
        try CommandRunner.run {
            let url = try HubPasswordInput.url(url, passwordFile: passwordFile)
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
