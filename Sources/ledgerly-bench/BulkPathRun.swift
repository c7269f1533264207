import Foundation
import LedgerlyRuntime

/// The bulk paths of `ledgerly-bench ledger` (issue 16, "streaming bulk paths"): the loaded ledger
/// exported as a journal, JSON and CSV, then the JSON restored with `ledgerly import json` into a
/// new home with its own store. Each command runs once, timed from process start to exit, under
/// GNU time for its peak RSS (one run: at a million transactions each writes hundreds of
/// megabytes). The journal is kept for the peers, the rest removed.
struct BulkPathRun {
    struct Result {
        let journal: URL
        let exportJournal: Duration
        let exportJSON: Duration
        let exportCSV: Duration
        /// The largest of the three exports' peak RSS; nil without /usr/bin/time.
        let exportCLIPeak: Double?
        let importJSON: Duration
        let importCLIPeak: Double?
        let importStorePeak: Double
    }

    let cli: CommandTimer
    let folder: URL

    func run() throws -> Result {
        let ledgerly = ServiceProcess.folder.appendingPathComponent("ledgerly").path
        let journal = folder.appendingPathComponent("ledger.journal")
        let json = folder.appendingPathComponent("bench-export.json")
        let csv = folder.appendingPathComponent("bench-export.csv")
        defer {
            try? FileManager.default.removeItem(at: json)
            try? FileManager.default.removeItem(at: csv)
        }
        var exports: [(Duration, Double?)] = []
        for (format, file) in [("journal", journal), ("json", json), ("csv", csv)] {
            let (time, peak) = try cli.timeOnce(ledgerly, ["export", format, "-o", file.path])
            let bytes = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            print(String(format: "ledgerly export %@: %.1f s (%.0f MB), peak RSS %@", format, time.seconds, Double(bytes) / 1_048_576, Self.megabytes(peak)))
            exports.append((time, peak))
        }

        // The restore: a new home, set up, its own store; the CLI reads the file as it goes.
        let target = LedgerlyHome(root: folder.appendingPathComponent("restored"))
        try target.prepare()
        defer { try? FileManager.default.removeItem(at: target.root) }
        try Data(#"{"providers": []}"#.utf8).write(to: target.root.appendingPathComponent("rates.json"))
        let store = try ServiceProcess(home: target, arguments: [])
        defer { store.terminate() }
        let restoring = CommandTimer(home: target)
        _ = try restoring.output(ledgerly, ["setup", "--base-currency", "EUR", "--exchange-mode", "official", "--yes"])
        let (time, peak) = try restoring.timeOnce(ledgerly, ["import", "json", json.path])
        let storePeak = ProcessMemory(pid: store.pid).peakMegabytes
        print(String(format: "ledgerly import json: %.1f s, CLI peak RSS %@, store peak RSS %.1f MB", time.seconds, Self.megabytes(peak), storePeak))
        let exportPeaks = exports.compactMap(\.1)
        return Result(journal: journal, exportJournal: exports[0].0, exportJSON: exports[1].0, exportCSV: exports[2].0,
                      exportCLIPeak: exportPeaks.isEmpty ? nil : exportPeaks.max(),
                      importJSON: time, importCLIPeak: peak, importStorePeak: storePeak)
    }

    static func megabytes(_ value: Double?) -> String {
        value.map { String(format: "%.1f MB", $0) } ?? "not measured (no /usr/bin/time)"
    }
}
