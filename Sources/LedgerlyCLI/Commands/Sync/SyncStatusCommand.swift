import ArgumentParser
import LedgerlyProtocol

/// `ledgerly sync status`: read from the store, so it answers while `ledgerly-sync` is down.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether sync is off, syncing, synced or failing, with what waits and the last error.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try CommandRunner.run {
            let status = try Gateway(global).call(SyncStatusRequest())
            if output.json { return try JSONOutput.print(status) }
            for line in Self.lines(status) { print(line) }
        }
    }

    static func lines(_ status: SyncStatusReply) -> [String] {
        guard status.state != "off" else {
            return ["Sync: off" + (status.ledgerId.map { " (this device was in ledger \($0); every local record is kept)" } ?? "")]
        }
        var lines = ["Sync: \(status.state)", "Hub: \(status.hub ?? "-")", "Ledger: \(status.ledgerId ?? "-")", "This device: \(status.deviceId ?? "-")",
                     "Last success: \(status.lastSuccess ?? "never")",
                     "Waiting to go out: \(status.waitingOut)", "Waiting to come in: \(status.waitingIn.map(String.init) ?? "unknown")"]
        if let error = status.lastError, status.state == "error" { lines.append("Last error (\(status.lastErrorAt ?? "-")): \(error)") }
        if !status.notices.isEmpty {
            lines.append("Conflicts settled:")
            lines += status.notices.map { "  - \($0)" }
        }
        return lines
    }
}
