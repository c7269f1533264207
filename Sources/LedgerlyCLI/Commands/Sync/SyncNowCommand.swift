import ArgumentParser
import LedgerlyProtocol

/// `ledgerly sync now`: one round with the hub at once.
struct SyncNowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Push and pull now instead of waiting for the next round.",
                                                    discussion: """
                                                        Exits 0 when the round went through; 5 when the hub could not be reached (down, restarting, \
                                                        the network gone: try again later); 1 when the hub or the store refused the round (a password, \
                                                        a URL, a certificate: the reason is printed); 3 only when ledgerly-sync itself did not answer.
                                                        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try CommandRunner.run {
            let round = try Gateway(global).callSync(SyncNowRequest(), patientMilliseconds: 300_000)
            if output.json { try JSONOutput.print(round) } else {
                print("Pushed \(round.pushed), applied \(round.pulled) from other devices.")
                for line in SyncStatusCommand.lines(round.status) { print(line) }
            }
            if let error = round.error { throw Self.failure(error, hubUnreachable: round.hubUnreachable == true) }
        }
    }

    /// A failed round: the hub out of reach (exit 5, worth trying again as is), or refused or
    /// failed otherwise (exit 1, something to fix). Never 3: ledgerly-sync answered (D423).
    static func failure(_ error: String, hubUnreachable: Bool) -> CLIFailure {
        hubUnreachable
            ? CLIFailure(message: "sync did not reach the hub: \(error)", status: .hubUnreachable,
                         hint: "ledgerly-sync is running; the hub is down or out of reach. Try again later; `ledgerly sync status` shows the last error.")
            : CLIFailure(message: "the sync round failed: \(error)", status: .refused, hint: "`ledgerly sync status` shows the last error.")
    }
}
