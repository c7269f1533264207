import ArgumentParser
import FoundationEssentials
import Glibc
import LedgerlyProtocol

/// `ledgerly sync rekey [--passphrase-file F] [--retire DEVICE]… [--yes] [--json]` (D480–D482).
struct SyncRekeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Set a new sync passphrase: a new ledger key, the old hub ledger retired; the other devices re-join with the new passphrase.",
        discussion: """
            Use it when a device is lost or stolen, or the passphrase may be known to someone else. A new ledger \
            is made on the same hub with a key derived from the new passphrase, this device's whole ledger is \
            sent into it, and the old ledger is retired: a record sealed with the old key tells every device \
            that still holds the old key to re-join (the hub cannot forge one; it can only withhold it).
            On each other device `ledgerly sync status` then says "re-join needed" and the command to run: \
            ledgerly sync enable --url URL --passphrase-file FILE, with the new passphrase. Until then the device \
            works on its own and keeps its changes; they travel after the re-join.
            A device that is not given the new passphrase (the lost one) reads nothing written after the rekey \
            and cannot write into the new ledger. Name it with --retire DEVICE (its id, from `ledgerly sync \
            devices`) so `sync devices` lists it as retired.
            The passphrase is read from --passphrase-file (first line), else asked for at the terminal; it must be \
            as strong as a new ledger's (60 bits: `ledgerly sync passphrase suggest`). Without --yes you are asked \
            to confirm at the terminal.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .customLong("passphrase-file"), help: "A file whose first line is the new sync passphrase (else you are asked).") var passphraseFile: String?
    @Option(name: .customLong("retire"), help: "A device (its id, see `ledgerly sync devices`) that will not get the new passphrase; repeat for several.")
    var retire: [String] = []
    @Flag(name: .shortAndLong, help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        try CommandRunner.run {
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw CLIFailure(message: "a rekey makes every other device re-join: confirm with --yes (no terminal to ask)", status: .refused)
                }
                print("Every other device will have to re-join with the new passphrase. Rekey now? [y/N]: ", terminator: "")
                fflush(nil)
                guard readLine()?.lowercased().hasPrefix("y") == true else { throw CLIFailure(message: "nothing was changed", status: .refused) }
            }
            let passphrase = try PassphraseInput.read(file: passphraseFile, prompt: "New sync passphrase (every device needs it to re-join): ")
            let gateway = try Gateway(global, wording: FieldWording(["passphrase": "--passphrase-file", "retireDevices": "--retire"]))
            // Deriving the key (scrypt), a round and the whole ledger's upload take seconds.
            let reply = try gateway.callSync(SyncRekeyRequest(passphrase: passphrase, retireDevices: retire.isEmpty ? nil : retire.map { $0.lowercased() }),
                                             patientMilliseconds: 300_000)
            if output.json { return try JSONOutput.print(reply) }
            print("Rekeyed: ledger \(reply.ledgerId) replaces \(reply.retiredLedgerId), which is retired.")
            if !reply.retiredDevices.isEmpty { print("Retired device(s), not to be given the new passphrase: \(reply.retiredDevices.joined(separator: ", "))") }
            print("On every other device, run: ledgerly sync enable --url \(reply.status.hub ?? "URL") --passphrase-file FILE (with the new passphrase).")
            for line in SyncStatusCommand.lines(reply.status) { print(line) }
        }
    }
}
