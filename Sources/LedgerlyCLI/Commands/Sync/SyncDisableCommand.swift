import ArgumentParser
import LedgerlyProtocol

/// `ledgerly sync disable`: the store stops stamping and applying; nothing local is removed.
struct SyncDisableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Stop syncing. Every local record stays; `sync enable` with the same hub resumes without duplicates.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try CommandRunner.run {
            let status = try Gateway(global).call(SyncDisableRequest())
            if output.json { return try JSONOutput.print(status) }
            print("Sync is off. Every local record is kept; \(status.waitingOut) change(s) not sent yet wait for `ledgerly sync enable`.")
        }
    }
}
