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

    /// The first line: the state, in words where the word alone would puzzle.
    static func stateLine(_ state: String) -> String {
        switch state {
        case "rejoin": "Sync: re-join needed"
        case "lost": "Sync: lost (messages from another device are gone for good: see Lost below)"
        default: "Sync: \(state)"
        }
    }

    static func lines(_ status: SyncStatusReply) -> [String] {
        guard status.state != "off" else {
            return ["Sync: off" + (status.ledgerId.map { " (this device was in ledger \($0); every local record is kept)" } ?? "")]
        }
        var lines = [Self.stateLine(status.state), "Hub: \(status.hub ?? "-")", "Ledger: \(status.ledgerId ?? "-")", "This device: \(status.deviceId ?? "-")",
                     "Last success: \(status.lastSuccess ?? "never")",
                     "Waiting to go out: \(status.waitingOut)", "Waiting to come in: \(status.waitingIn.map(String.init) ?? "unknown")"]
        lines += HubURLText.statusLines(hub: status.hub, authentication: status.hubAuthentication)
        // A rekey on another device retired this ledger (D482): what to do, plainly.
        if let successor = status.rejoinLedgerId {
            lines.append("Re-join needed: this ledger was retired by a rekey on another device; ledger \(successor) replaces it.")
            lines.append("  Run: ledgerly sync enable --url \(status.hub ?? "URL") --passphrase-file FILE   (FILE holding the new passphrase)")
            lines.append("  Until then this device works on its own; its changes are kept and go out after the re-join.")
        }
        if let error = status.lastError, status.state == "error" { lines.append("Last error (\(status.lastErrorAt ?? "-")): \(error)") }
        // Gaps (issue 44, finding 3): while one is known, the state is not `synced`.
        for gap in status.gaps ?? [] {
            lines.append("Gap: device \(gap.device) sent messages \(gap.missing) that have not arrived here; "
                         + (gap.requestedAt.map { "a re-send was asked at \($0)" } ?? "a re-send will be asked"))
        }
        // Lost for good (D521): what it means, and what ends it.
        for gap in status.lostGaps ?? [] {
            lines.append("Lost: device \(gap.device) sent messages \(gap.missing) that never arrived here, and it no longer holds them"
                         + (gap.lostAt.map { " (it said so at \($0))" } ?? "") + "; they are not asked for again.")
            lines.append("  Changes that device made may be missing on this device. Edit them again there, or run `ledgerly sync rekey` (a new passphrase: every device re-joins and sends its whole ledger again).")
        }
        // Rows put aside (issue 44, findings 4 and 5): named, so nothing is dropped in silence.
        if let total = status.quarantinedTotal, total > 0 {
            lines.append("Quarantined: \(total) hub row\(total == 1 ? "" : "s") that did not open or decode, passed over:")
            lines += (status.quarantined ?? []).map { "  - row \($0.hubSeq), device \($0.device), clock \($0.hlc): \($0.reason)" }
        }
        if let total = status.heldTotal, total > 0 {
            lines.append("Held: \(total) change\(total == 1 ? "" : "s") with a clock too far ahead, not applied\(status.heldDueAt.map { " (the first until \($0))" } ?? ""):")
            lines += (status.held ?? []).map { "  - row \($0.hubSeq), device \($0.device): \($0.reason)" }
        }
        if !status.notices.isEmpty {
            lines.append("Conflicts settled:")
            lines += status.notices.map { "  - \($0)" }
        }
        return lines
    }
}
