import ArgumentParser
import Foundation
import LedgerlyTesting

/// `ledgerly-bench invest`: 1,000 assets and 100,000 trades (buys, sales, dividends, a few splits)
/// loaded into a real `ledgerly-store` through `invest.trade.import`, a price for every asset, then
/// `invest.holdings` and `invest.gains` (one year, all years) timed over the socket, from the
/// request sent to the reply decoded. The test suite runs the same logic at a tiny scale.
struct InvestBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invest",
        abstract: "Load N assets and trades, time invest.holdings and invest.gains round trips (target: median ≤ 20 ms).",
        discussion: "Example: swift build -c release --static-swift-stdlib --product ledgerly-bench && swift build -c release --static-swift-stdlib --product ledgerly-store && .build/release/ledgerly-bench invest")

    @Option(help: "Assets.") var assets = 1_000
    @Option(help: "Trades in all (buys, sales, dividends), spread over the assets.") var trades = 100_000
    @Option(help: "Assets split 2:1 after their last trade.") var splits = 5
    @Option(help: "Timed requests of each kind (after one untimed).") var repetitions = 20
    @Option(help: "The year of the one-year invest.gains.") var year = 2024
    @Option(help: "Lines per invest.trade.import request (at most 10000).") var batch = 10_000
    @Option(help: "Work folder, kept afterwards (default: a new folder in /tmp, removed).") var workDir: String?
    @Option(help: "Folder holding the ledgerly-store to run (default: this benchmark's own folder).") var binaries: String?

    static let targetMilliseconds = 20.0

    func run() throws {
        let store = URL(fileURLWithPath: binaries ?? ServiceProcess.folder.path).appendingPathComponent("ledgerly-store").resolvingSymlinksInPath().path
        say("ledgerly-bench invest: \(assets) assets, \(trades) trades, \(splits) splits, \(repetitions) timed requests each, \(ProcessInfo.processInfo.activeProcessorCount) cores, store \(store)")
        let report = try InvestBenchmarkRun(
            InvestBenchmarkConfiguration(binaries: binaries.map { URL(fileURLWithPath: $0) } ?? ServiceProcess.folder, assets: assets, trades: trades, splits: splits, repetitions: repetitions, year: year, batch: batch,
                                         workDirectory: workDir.map { URL(fileURLWithPath: $0) }),
            progress: { say("  \($0)") }).run()
        say(String(format: "load: %d trades (%d splits) in %.1f s = %.0f trades/s; %d prices in %.2f s", report.tradesLoaded, report.splits, report.loadTime.seconds,
                   Double(report.tradesLoaded) / report.loadTime.seconds, report.assets, report.pricesTime.seconds))
        say(String(format: "database: %.1f MB (ledgerly.sqlite with its WAL)", Double(report.databaseBytes) / 1_048_576))
        for trips in [report.holdings, report.holdingsPage, report.gainsPage, report.gainsYear, report.gainsAll] {
            say(String(format: "%@: min %.1f / median %.1f / p95 %.1f / max %.1f ms (of which decoding %.1f ms), reply %.2f MB, %d items",
                       trips.name, trips.min.milliseconds, trips.median.milliseconds, trips.p95.milliseconds, trips.max.milliseconds,
                       trips.medianDecode.milliseconds, Double(trips.replyBytes) / 1_048_576, trips.items))
        }
        for trips in [report.holdings, report.holdingsPage, report.gainsPage, report.gainsYear, report.gainsAll] {
            let met = trips.median.milliseconds <= Self.targetMilliseconds
            say(String(format: "target median ≤ %.0f ms for %@: %@", Self.targetMilliseconds, trips.name, met ? "met" : "MISSED"))
        }
        let checks = report.holdingsMatch && report.gainsAll.items == report.expectedSales && report.gainsYear.items == report.expectedSalesInYear
            && report.gainsPage.items == Swift.min(100, report.expectedSalesInYear)
            && report.holdingsPageMatch && report.holdingsPage.items == Swift.min(100, report.holdings.items)
        say("replies agree with the generated history (quantities held, a page of holdings, sales per year): \(checks ? "yes" : "NO")")
        if !checks { throw ExitCode.failure }
    }
}
