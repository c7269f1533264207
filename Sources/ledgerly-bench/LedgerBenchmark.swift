import ArgumentParser
import Foundation

/// `ledgerly-bench ledger`: a synthetic multi-currency history loaded through the real protocol,
/// then the CLI's reports timed from process start to output, the same reports as round trips,
/// the store's cold start and memory, the CLI's memory, and the equivalent `hledger` and `ledger`
/// reports timed in the same run with their totals compared with Ledgerly's. With `--scales`
/// every scale runs on a fresh home and the figures end in one scaling table, each beside the
/// machine's own limit measured in the same run (a plain SQLite insert, a bare ZeroMQ round trip,
/// a do-nothing Swift binary's start) and issue 16's target.
struct LedgerBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Load N synthetic transactions, time reports against hledger and ledger, compare totals; with --scales, print a scaling table.",
        discussion: """
            Examples: swift run -c release ledgerly-bench ledger --transactions 1000000
                      .build/release/ledgerly-bench ledger --scales 10000,100000,1000000 --json table.json
            """)

    @Option(help: "Transactions to generate (transfers count once); the one scale when --scales is not given.") var transactions = 1_000_000
    @Option(help: "Comma-separated transaction counts, each run on a fresh home, then one scaling table (e.g. 10000,100000,1000000).")
    var scales: String?
    @Option(help: "Items per tx.import batch (and rows per SQL transaction of the SQLite limit).") var batch = 5_000
    @Option(help: "Concurrent senders while loading.") var senders = 2
    @Option(help: "Runs of each CLI report (the median is printed).") var runs = 7
    @Option(help: "Runs of `ledgerly --version` and of the do-nothing binary it is read against.") var startRuns = 21
    @Option(help: "Runs of each hledger/ledger report (each takes minutes at 1M).") var peerRuns = 1
    @Option(help: "Seconds after which a hledger/ledger run is stopped and reported as taking longer.") var peerLimit = 300
    @Option(help: "With --scales: the peers run at the scales of at least this many transactions.") var peersFrom = 100_000
    @Flag(help: "Skip hledger and ledger (no journal, no comparison).") var skipPeers = false
    @Option(help: "Also write the scaling table as JSON to this file.") var json: String?
    @Option(help: "Work folder, kept afterwards (default: a new folder in /tmp, removed).") var workDir: String?

    /// The scales to run, in the order given.
    private func scaleList() throws -> [Int] {
        guard let scales else { return [transactions] }
        let list = scales.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "") }
        let numbers = list.compactMap { Int($0) }.filter { $0 > 0 }
        guard numbers.count == list.count, !numbers.isEmpty else { throw ValidationError("--scales takes positive transaction counts separated by commas, e.g. 10000,100000") }
        return numbers
    }

    func run() throws {
        let list = try scaleList()
        let root = URL(fileURLWithPath: workDir ?? "/tmp/lbench-ledger-\(UUID().uuidString.prefix(8))")
        defer { if workDir == nil { try? FileManager.default.removeItem(at: root) } }
        var table = ScalingTable()
        for scale in list {
            let folder = list.count == 1 ? root : root.appendingPathComponent("scale-\(scale)")
            // Without --scales the peers run as they always have; with it, from --peers-from up.
            let peers = !skipPeers && (self.scales == nil || scale >= peersFrom)
            try LedgerScaleRun(transactions: scale, batch: batch, senders: senders, runs: runs, startRuns: startRuns, peers: peers,
                               peerRuns: peerRuns, peerLimit: peerLimit, root: folder).run(into: &table)
            // A finished scale's home is not needed again; at 1M it is most of a gigabyte.
            if workDir == nil && list.count > 1 { try? FileManager.default.removeItem(at: folder) }
            print("")
        }
        print("scaling table (medians; ↳ a limit of this machine measured in the same run, the figure's share of it in brackets; mark at the largest scale)")
        print(table.rendered)
        if let json {
            try table.json().write(to: URL(fileURLWithPath: json))
            print("scaling table written as JSON to \(json)")
        }
    }
}
