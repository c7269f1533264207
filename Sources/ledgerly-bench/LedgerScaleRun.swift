import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import ZeroMQ

/// One scale of `ledgerly-bench ledger` on a fresh home: the machine's limits measured first, then
/// the synthetic history loaded through the real protocol, the CLI's commands timed from process
/// start to exit, the same reports as round trips, the store's memory and cold start, and (when
/// asked) the peers and the totals compared with hledger's. Every figure is printed as a line as
/// it is measured and recorded into the scaling table.
struct LedgerScaleRun {
    let transactions: Int
    let batch: Int
    let senders: Int
    let runs: Int
    /// Runs of `ledgerly --version` and of the do-nothing binary (each a few milliseconds).
    let startRuns: Int
    let peers: Bool
    let peerRuns: Int
    let peerLimit: Int
    /// This scale's own folder, removed by the caller.
    let root: URL

    func run(into table: inout ScalingTable) throws {
        let scale = transactions
        let home = LedgerlyHome(root: root.appendingPathComponent("home"))
        try home.prepare()
        try Data(#"{"providers": []}"#.utf8).write(to: home.root.appendingPathComponent("rates.json"))
        print("ledgerly-bench ledger: \(transactions) transactions, batches of \(batch), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let cli = CommandTimer(home: home)
        let ledgerly = ServiceProcess.folder.appendingPathComponent("ledgerly").path

        // The machine's limits for the load and the round trips, in the same run, before the store starts.
        let sqlite = try SQLiteInsertLimit(folder: root, transactions: transactions, batch: batch).run()
        table.record(.sqliteInsertLimit, sqlite.transactionsPerSecond, at: scale)
        print(String(format: "limit: plain SQLite insert of the same %d transactions (%d rows), %d a transaction: %.2f s = %.0f transactions/s",
                     sqlite.transactions, sqlite.rows, batch, sqlite.time.seconds, sqlite.transactionsPerSecond))
        let storeSchema = try SQLiteInsertLimit(folder: root, transactions: transactions, batch: batch, schema: .store).run()
        table.record(.sqliteStoreSchemaLimit, storeSchema.transactionsPerSecond, at: scale)
        print(String(format: "limit: the same rows into the store's own schema (indexes, constraints, foreign keys): %.2f s = %.0f transactions/s",
                     storeSchema.time.seconds, storeSchema.transactionsPerSecond))
        let zeroMQ = try ZeroMQRoundTripLimit(folder: root, roundTrips: 2_000).run()
        table.record(.zeroMQLimit, zeroMQ.seconds * 1e6, at: scale)
        print(String(format: "limit: bare ZeroMQ REQ/REP round trip over ipc, in-process: median %.0f µs", zeroMQ.seconds * 1e6))

        var store = try ServiceProcess(home: home, arguments: [])
        defer { store.terminate() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 120_000, attempts: 1))

        // Setup, wallets, categories, five years of daily rates, then the transactions from two
        // senders, so one encodes its next batch while the store applies the other's.
        let load = try SyntheticLedgerLoad(home: home, context: context, transactions: transactions, batch: batch, senders: senders).run(client: client, log: { print($0) })
        let loadTime = load.loadTime
        let loaded = load.loaded
        print(String(format: "load: %d transactions in %.1f s = %.0f transactions/s", loaded, loadTime.seconds, Double(loaded) / loadTime.seconds))
        guard load.failedBatches == 0, loaded == transactions else { throw BenchmarkError.mismatch("loaded \(loaded) transactions, expected \(transactions)") }
        table.record(.loadRate, Double(loaded) / loadTime.seconds, at: scale)
        table.record(.loadTime, loadTime.seconds, at: scale)

        // Start-up: the do-nothing Swift binary, then `ledgerly --version`, one right after the other.
        let nothing = try cli.time(ServiceProcess.folder.appendingPathComponent("ledgerly-bench-true").path, [], runs: startRuns)!
        table.record(.swiftStartLimit, nothing.median.milliseconds, at: scale)
        print(String(format: "limit: ledgerly-bench-true (a Swift binary that does nothing), start to exit: median %.2f ms (%d runs)", nothing.median.milliseconds, startRuns))
        let version = try cli.time(ledgerly, ["--version"], runs: startRuns)!
        table.record(.version, version.median.milliseconds, at: scale)
        print(String(format: "ledgerly --version: median %.2f ms (min %.2f, max %.2f, %d runs)",
                     version.median.milliseconds, version.min.milliseconds, version.max.milliseconds, startRuns))

        // CLI reports, process start to output.
        let reports: [(ScalingFigure, [String])] = [
            (.balanceCLI, ["report", "balance"]),
            (.categoriesMonthlyCLI, ["report", "categories", "--monthly"]),
            (.categoriesCLI, ["report", "categories"]),
            (.cashflowCLI, ["report", "cashflow"]),
            (.payeesCLI, ["report", "payees"]),
            (.txListCLI, ["tx", "list", "--category", "Food", "--from", "2026-01-01", "--limit", "50"]),
        ]
        var medians: [String: Duration] = [:]
        var cliPeak = try cli.peakMegabytes(ledgerly, ["--version"])
        for (figure, arguments) in reports {
            let timings = try cli.time(ledgerly, arguments, runs: runs)!
            let name = String(figure.name.dropFirst("ledgerly ".count))
            medians[name] = timings.median
            let peak = try cli.peakMegabytes(ledgerly, arguments)
            cliPeak = peak.map { max(cliPeak ?? 0, $0) }
            table.record(figure, timings.median.milliseconds, at: scale)
            print(String(format: "ledgerly %@: median %.1f ms (min %.1f, max %.1f, %d runs), peak RSS %@",
                         name, timings.median.milliseconds, timings.min.milliseconds, timings.max.milliseconds, runs, peak.map { String(format: "%.1f MB", $0) } ?? "not measured (no /usr/bin/time)"))
        }
        if let cliPeak { table.record(.cliPeakRSS, cliPeak, at: scale) }

        // The same reports over the protocol alone: what the store takes, without process start-up.
        let food = try client.call(CategoryListRequest()).categories.first { $0.name == "Food" && $0.parentId == nil }?.id
        let requests: [(ScalingFigure, String, () throws -> Void)] = [
            (.balanceTrip, "report.balance", { _ = try client.call(BalanceReportRequest()) }),
            (.categoriesTrip, "report.categories", { _ = try client.call(CategoryReportRequest()) }),
            (.cashflowTrip, "report.cashflow", { _ = try client.call(CashFlowReportRequest()) }),
            (.payeesTrip, "report.payees", { _ = try client.call(PayeeReportRequest()) }),
            (.txListTrip, "tx.list", { _ = try client.call(TransactionListRequest(categoryId: food, from: "2026-01-01", limit: 50)) }),
        ]
        for (figure, name, request) in requests {
            var times: [Duration] = []
            for _ in 0..<max(runs, 5) {
                let started = ContinuousClock.now
                try request()
                times.append(ContinuousClock.now - started)
            }
            let median = times.sorted()[times.count / 2]
            table.record(figure, median.milliseconds, at: scale)
            print(String(format: "%@ round trip: median %.1f ms", name, median.milliseconds))
        }
        let rss = ProcessMemory(pid: store.pid)
        table.record(.storePeakRSS, rss.peakMegabytes, at: scale)
        print(String(format: "store memory after load and reports: RSS %.1f MB, peak RSS %.1f MB", rss.residentMegabytes, rss.peakMegabytes))
        let database = DatabaseSize(home: home).megabytes
        table.record(.databaseSize, database, at: scale)
        print(String(format: "database: %.1f MB (ledgerly.sqlite with its WAL)", database))

        // Bulk paths: the three exports, then the JSON restored into a new home.
        let bulk = try BulkPathRun(cli: cli, folder: root).run()
        table.record(.exportJournalRate, Double(loaded) / bulk.exportJournal.seconds, at: scale)
        table.record(.exportJournal, bulk.exportJournal.seconds, at: scale)
        table.record(.exportJSONRate, Double(loaded) / bulk.exportJSON.seconds, at: scale)
        table.record(.exportJSON, bulk.exportJSON.seconds, at: scale)
        table.record(.exportCSV, bulk.exportCSV.seconds, at: scale)
        if let peak = bulk.exportCLIPeak { table.record(.exportCLIPeakRSS, peak, at: scale) }
        table.record(.importJSONRate, Double(loaded) / bulk.importJSON.seconds, at: scale)
        table.record(.importJSON, bulk.importJSON.seconds, at: scale)
        if let peak = bulk.importCLIPeak { table.record(.importCLIPeakRSS, peak, at: scale) }
        table.record(.importStorePeakRSS, bulk.importStorePeak, at: scale)

        // Cold start: a new store process on the same data, to its first reply and first report.
        store.terminate()
        let coldStarted = ContinuousClock.now
        store = try ServiceProcess(home: home, arguments: [], probeMilliseconds: 5)
        let firstReply = ContinuousClock.now - coldStarted
        // A new client, as a `ledgerly` command has: the old one's socket lost the stopped store
        // and ZeroMQ reconnects it only after its reconnect interval (100 ms), which is what this
        // figure measured before (D342).
        let coldClient = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 120_000, attempts: 1))
        _ = try coldClient.call(CategoryReportRequest())
        let firstReport = ContinuousClock.now - coldStarted
        coldClient.close()
        let coldMemory = ProcessMemory(pid: store.pid)
        table.record(.coldStartReply, firstReply.milliseconds, at: scale)
        table.record(.coldStartReport, firstReport.milliseconds, at: scale)
        table.record(.coldStartPeakRSS, coldMemory.peakMegabytes, at: scale)
        print(String(format: "store cold start: first reply after %.0f ms, first category report after %.0f ms, peak RSS %.1f MB",
                     firstReply.milliseconds, firstReport.milliseconds, coldMemory.peakMegabytes))

        guard peers else { return }
        let timings = try PeerComparison(home: home, journal: bulk.journal, client: client, cli: cli, runs: peerRuns, limit: .seconds(peerLimit), ledgerlyMedians: medians).run()
        for timing in timings {
            let ratio = ScalingFigure.peerRatio(timing.command, timing.counterpart)
            let ours = max(timing.ours.seconds, 1e-9)
            if let time = timing.time {
                table.record(.peer(timing.command), time.seconds, at: scale)
                table.record(ratio, time.seconds / ours, at: scale)
            } else {
                table.record(.peer(timing.command), .moreThan(Double(peerLimit)), at: scale)
                table.record(ratio, .moreThan(Double(peerLimit) / ours), at: scale)
            }
        }
    }
}
