import Foundation
import LedgerlyRuntime

/// The three exports of a loaded ledger, each timed from process start to exit, one run each (at
/// a million transactions each writes hundreds of megabytes), with the file's size (issue 16,
/// bulk out; docs/performance.md, "Exports"). Meant for `ledgerly-bench ledger` after its
/// reports: `try ExportTiming(cli: cli, folder: root).run()`.
struct ExportTiming {
    let cli: CommandTimer
    let folder: URL

    func run() throws {
        let ledgerly = ServiceProcess.folder.appendingPathComponent("ledgerly").path
        for format in ["journal", "json", "csv"] {
            let file = folder.appendingPathComponent("bench-export.\(format)")
            defer { try? FileManager.default.removeItem(at: file) }
            guard let timings = try cli.time(ledgerly, ["export", format, "-o", file.path], runs: 1) else { continue }
            let bytes = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            print(String(format: "ledgerly export %@: %.1f s (%.1f MB)", format, timings.median.seconds, Double(bytes) / 1_000_000))
        }
    }
}
