import ArgumentParser
import Foundation
import LedgerlyTesting

/// `ledgerly-bench networth`: the ledger benchmark's million transactions, ten years of manual
/// assets and liabilities, the monthly snapshots back-filled as `ledgerly-alerts` does it (each
/// `networth.snapshot.take` timed), then `networth.snapshot.list` over the ten years (the round
/// trip behind `ledgerly report networth`) and `networth.get` for today, timed over the socket.
/// Its own subcommand rather than a part of `ledger` (D205). The test suite runs the same logic
/// at a tiny scale.
struct NetWorthBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "networth",
        abstract: "Load N transactions and ten years of assets and liabilities, back-fill monthly snapshots, time networth.snapshot.list (target: median ≤ 20 ms) and networth.get.",
        discussion: "Example: swift build -c release --static-swift-stdlib --product ledgerly-store && swift build -c release --static-swift-stdlib --product ledgerly-bench && .build/release/ledgerly-bench networth")

    @Option(help: "Transactions to generate (the ledger benchmark's history).") var transactions = 1_000_000
    @Option(help: "Items per tx.import batch.") var batch = 5_000
    @Option(help: "Concurrent senders while loading.") var senders = 2
    @Option(help: "Ended months of net-worth history (the last is last month).") var months = 120
    @Option(help: "Timed requests of each kind (after one untimed).") var repetitions = 20
    @Flag(help: "Skip the one networth.snapshot.list --recompute.") var skipRecompute = false
    @Option(help: "Work folder, kept afterwards (default: a new folder in /tmp, removed).") var workDir: String?
    @Option(help: "Folder holding the ledgerly-store to run (default: this benchmark's own folder).") var binaries: String?

    static let targetMilliseconds = 20.0

    func run() throws {
        let store = URL(fileURLWithPath: binaries ?? ServiceProcess.folder.path).appendingPathComponent("ledgerly-store").resolvingSymlinksInPath().path
        say("ledgerly-bench networth: \(transactions) transactions, \(months) months, \(repetitions) timed requests each, \(ProcessInfo.processInfo.activeProcessorCount) cores, store \(store)")
        let report = try NetWorthBenchmarkRun(
            NetWorthBenchmarkConfiguration(binaries: binaries.map { URL(fileURLWithPath: $0) } ?? ServiceProcess.folder, transactions: transactions, batch: batch,
                                           senders: senders, months: months, repetitions: repetitions, recompute: !skipRecompute,
                                           workDirectory: workDir.map { URL(fileURLWithPath: $0) }),
            progress: { say("  \($0)") }).run()
        say(String(format: "load: %d transactions in %.1f s = %.0f transactions/s; %d valuations and liability entries", report.transactionsLoaded, report.loadTime.seconds,
                   Double(report.transactionsLoaded) / report.loadTime.seconds, report.netWorthEntries))
        say(String(format: "database: %.1f MB (ledgerly.sqlite with its WAL)", Double(report.databaseBytes) / 1_048_576))
        let takes = report.takeTimes.sorted()
        if !takes.isEmpty {
            say(String(format: "back-fill: %d snapshots (%@ … %@) in %.2f s; each networth.snapshot.take min %.1f / median %.1f / max %.1f ms",
                       takes.count, report.missingBefore.first ?? "", report.missingBefore.last ?? "", report.backfillTime.seconds,
                       takes[0].benchMilliseconds, takes[takes.count / 2].benchMilliseconds, takes[takes.count - 1].benchMilliseconds))
        }
        for trips in [report.list, report.get] {
            say(String(format: "%@: min %.1f / median %.1f / p95 %.1f / max %.1f ms (of which decoding %.1f ms), reply %d bytes, %d items",
                       trips.name, trips.min.benchMilliseconds, trips.median.benchMilliseconds, trips.p95.benchMilliseconds, trips.max.benchMilliseconds,
                       trips.medianDecode.benchMilliseconds, trips.replyBytes, trips.items))
        }
        if let time = report.recomputeTime, let differs = report.recomputeDiffers {
            say(String(format: "networth.snapshot.list --recompute over the same months, once: %.0f ms; %d snapshots differ", time.benchMilliseconds, differs))
        }
        let met = report.list.median.benchMilliseconds <= Self.targetMilliseconds
        say(String(format: "target median ≤ %.0f ms for networth.snapshot.list: %@", Self.targetMilliseconds, met ? "met" : "MISSED"))
        let checks = report.missingBefore == report.expectedMonths && report.created == report.expectedMonths.count
            && report.snapshotMonths == report.expectedMonths && report.missingAfter.isEmpty && (report.recomputeDiffers ?? 0) == 0
        say("one snapshot per month, none missing, none differing when recomputed: \(checks ? "yes" : "NO")")
        if !checks { throw ExitCode.failure }
    }
}
