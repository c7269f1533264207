import ArgumentParser
import LedgerlyProtocol

/// `ledgerly sync now`: one round with the hub at once.
struct SyncNowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Push and pull now instead of waiting for the next round.",
                                                    discussion: "Exits 0 when the round reached the hub, 3 when it did not (the reason is printed).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try CommandRunner.run {
            let round = try Gateway(global).callSync(SyncNowRequest(), patientMilliseconds: 300_000)
            if output.json { try JSONOutput.print(round) } else {
                print("Pushed \(round.pushed), applied \(round.pulled) from other devices.")
                for line in SyncStatusCommand.lines(round.status) { print(line) }
            }
            if let error = round.error { throw CLIFailure(message: "sync did not reach the hub: \(error)", status: .unavailable) }
        }
    }
}
