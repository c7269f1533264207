import ArgumentParser
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import ZeroMQ

/// `ledgerly-bench ledger`: a million-transaction history loaded through the real protocol, then
/// the CLI's reports timed from process start to output, the store's cold start, memory and
/// database size; then the same data exported as a journal and the equivalent `hledger` and
/// `ledger` reports timed in the same run, and their totals compared with Ledgerly's.
struct LedgerBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Load N synthetic transactions, time reports against hledger and ledger, compare totals.",
        discussion: "Example: swift run -c release ledgerly-bench ledger --transactions 1000000")

    @Option(help: "Transactions to generate (transfers count once).") var transactions = 1_000_000
    @Option(help: "Items per tx.import batch.") var batch = 5_000
    @Option(help: "Concurrent senders while loading.") var senders = 2
    @Option(help: "Runs of each CLI report (the median is printed).") var runs = 7
    @Option(help: "Runs of each hledger/ledger report (each takes minutes at 1M).") var peerRuns = 1
    @Option(help: "Seconds after which a hledger/ledger run is stopped and reported as taking longer.") var peerLimit = 300
    @Flag(help: "Skip hledger and ledger (no journal, no comparison).") var skipPeers = false
    @Option(help: "Work folder (default: a new folder in /tmp, removed afterwards).") var workDir: String?

    func run() throws {
        let root = URL(fileURLWithPath: workDir ?? "/tmp/lbench-ledger-\(UUID().uuidString.prefix(8))")
        let home = LedgerlyHome(root: root.appendingPathComponent("home"))
        try home.prepare()
        defer { if workDir == nil { try? FileManager.default.removeItem(at: root) } }
        try Data(#"{"providers": []}"#.utf8).write(to: home.root.appendingPathComponent("rates.json"))
        var store = try ServiceProcess(home: home, arguments: [])
        defer { store.terminate() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 120_000, attempts: 1))
        print("ledgerly-bench ledger: \(transactions) transactions, batches of \(batch), \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // Setup, wallets, categories, five years of daily rates, then the transactions from two
        // senders, so one encodes its next batch while the store applies the other's.
        let load = try SyntheticLedgerLoad(home: home, context: context, transactions: transactions, batch: batch, senders: senders).run(client: client, log: { print($0) })
        let loadTime = load.loadTime
        let loaded = load.loaded
        print(String(format: "load: %d transactions in %.1f s = %.0f transactions/s", loaded, loadTime.seconds, Double(loaded) / loadTime.seconds))
        guard load.failedBatches == 0, loaded == transactions else { throw BenchmarkError.mismatch("loaded \(loaded) transactions, expected \(transactions)") }

        // CLI reports, process start to output.
        let cli = CommandTimer(home: home)
        let reports: [(String, [String])] = [
            ("report balance", ["report", "balance"]),
            ("report categories --monthly", ["report", "categories", "--monthly"]),
            ("report categories", ["report", "categories"]),
            ("report cashflow", ["report", "cashflow"]),
            ("report payees", ["report", "payees"]),
            ("tx list --category Food --from 2026-01-01", ["tx", "list", "--category", "Food", "--from", "2026-01-01", "--limit", "50"]),
        ]
        var medians: [String: Duration] = [:]
        for (name, arguments) in reports {
            let timings = try cli.time(ServiceProcess.folder.appendingPathComponent("ledgerly").path, arguments, runs: runs)!
            medians[name] = timings.median
            print(String(format: "ledgerly %@: median %.1f ms (min %.1f, max %.1f, %d runs)", name, timings.median.milliseconds, timings.min.milliseconds, timings.max.milliseconds, runs))
        }
        // The same reports over the protocol alone: what the store takes, without process start-up.
        let requests: [(String, () throws -> Void)] = [
            ("report.balance", { _ = try client.call(BalanceReportRequest()) }),
            ("report.categories", { _ = try client.call(CategoryReportRequest()) }),
            ("report.cashflow", { _ = try client.call(CashFlowReportRequest()) }),
            ("report.payees", { _ = try client.call(PayeeReportRequest()) }),
        ]
        for (name, request) in requests {
            var times: [Duration] = []
            for _ in 0..<max(runs, 5) {
                let started = ContinuousClock.now
                try request()
                times.append(ContinuousClock.now - started)
            }
            print(String(format: "%@ round trip: median %.1f ms", name, times.sorted()[times.count / 2].milliseconds))
        }
        let rss = ProcessMemory(pid: store.pid)
        print(String(format: "store memory after load and reports: RSS %.1f MB, peak RSS %.1f MB", rss.residentMegabytes, rss.peakMegabytes))
        print(String(format: "database: %.1f MB (ledgerly.sqlite with its WAL)", DatabaseSize(home: home).megabytes))

        // Cold start: a new store process on the same data, to its first reply and first report.
        store.terminate()
        let coldStarted = ContinuousClock.now
        store = try ServiceProcess(home: home, arguments: [], probeMilliseconds: 5)
        let firstReply = ContinuousClock.now - coldStarted
        _ = try client.call(CategoryReportRequest())
        let firstReport = ContinuousClock.now - coldStarted
        print(String(format: "store cold start: first reply after %.0f ms, first category report after %.0f ms", firstReply.milliseconds, firstReport.milliseconds))

        guard !skipPeers else { return }
        try PeerComparison(home: home, folder: root, client: client, cli: cli, runs: peerRuns, limit: .seconds(peerLimit), ledgerlyMedians: medians).run()
    }
}
