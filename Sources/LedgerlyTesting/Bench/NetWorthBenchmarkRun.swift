import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// What a `networth` benchmark run does (`ledgerly-bench networth`; the test suite runs a tiny one).
public struct NetWorthBenchmarkConfiguration: Sendable {
    /// The folder holding `ledgerly-store`.
    public var binaries: URL
    /// Transactions of `SyntheticHistory` (the ledger benchmark's), loaded as it loads them.
    public var transactions: Int
    public var batch: Int
    public var senders: Int
    /// Ended months of history, the last one being the month before the current one: the house
    /// and the mortgage start in the first, so `missing` names this many months at least.
    public var months: Int
    /// Timed requests of each kind (after one untimed warm-up request each).
    public var repetitions: Int
    /// Also asks `networth.snapshot.list` with `recompute` once (timed, printed) and counts the
    /// snapshots whose recomputed figures differ (none should: nothing changed since).
    public var recompute: Bool
    /// Kept after the run when given; else a new folder in /tmp, removed afterwards.
    public var workDirectory: URL?

    public init(binaries: URL, transactions: Int = 1_000_000, batch: Int = 5_000, senders: Int = 2, months: Int = 120, repetitions: Int = 20, recompute: Bool = true,
                workDirectory: URL? = nil) {
        self.binaries = binaries
        self.transactions = transactions
        self.batch = batch
        self.senders = senders
        self.months = months
        self.repetitions = repetitions
        self.recompute = recompute
        self.workDirectory = workDirectory
    }
}

public struct NetWorthBenchmarkReport: Sendable {
    public let transactionsLoaded: Int
    public let loadTime: Duration
    /// Manual assets' valuations and liability entries (payments included) recorded.
    public let netWorthEntries: Int
    public let databaseBytes: Int
    /// The months `networth.snapshot.list` named missing before the back-fill, oldest first.
    public let missingBefore: [String]
    /// The ended months of history the run expected to be missing: from the ledger's first month
    /// (the synthetic transactions' or the house's, whichever is earlier) to last month.
    public let expectedMonths: [String]
    /// Each `networth.snapshot.take` of the back-fill, oldest month first, and all of them.
    public let takeTimes: [Duration]
    public let backfillTime: Duration
    /// Taken by the back-fill (`created: true`), and what `networth.snapshot.list` holds after.
    public let created: Int
    public let snapshotMonths: [String]
    public let missingAfter: [String]
    /// `networth.snapshot.list` for the configured months, and `networth.get` for today.
    public let list: RoundTrips
    public let get: RoundTrips
    /// With `recompute`: the time of one `networth.snapshot.list --recompute` over the same
    /// months, and how many snapshots it says differ.
    public let recomputeTime: Duration?
    public let recomputeDiffers: Int?
    /// `networth.get` today: whether every counted item was valued.
    public let todayComplete: Bool
}

/// Loads the ledger benchmark's synthetic history into a real `ledgerly-store`, adds ten years
/// (by default) of manual assets and liabilities — a house revalued yearly, a mortgage paid
/// monthly from Checking, a volatile crypto holding in USD revalued monthly — then back-fills the
/// monthly snapshots as `ledgerly-alerts` does (`networth.snapshot.list` for `missing`, then
/// `networth.snapshot.take` per month with the key `networth:<YYYY-MM>`), timing each take, and
/// times `networth.snapshot.list` over the months (what `ledgerly report networth` asks) and
/// `networth.get` for today.
public struct NetWorthBenchmarkRun {
    public let configuration: NetWorthBenchmarkConfiguration
    private let progress: (String) -> Void

    public init(_ configuration: NetWorthBenchmarkConfiguration, progress: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.progress = progress
    }

    public func run() throws -> NetWorthBenchmarkReport {
        let root = configuration.workDirectory ?? URL(fileURLWithPath: "/tmp/lbench-networth-\(UUID().uuidString.prefix(8))")
        let home = LedgerlyHome(root: root.appendingPathComponent("home"))
        try home.prepare()
        defer { if configuration.workDirectory == nil { try? FileManager.default.removeItem(at: root) } }
        let store = try StoreProcess(binaries: configuration.binaries, home: home)
        defer { store.stop() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 300_000, attempts: 1))
        defer { client.close() }

        let load = try SyntheticLedgerLoad(home: home, context: context, transactions: configuration.transactions, batch: configuration.batch, senders: configuration.senders)
            .run(client: client, log: { print($0) })
        guard load.failedBatches == 0, load.loaded == configuration.transactions else {
            throw InvestBenchmarkError.mismatch("loaded \(load.loaded) transactions, expected \(configuration.transactions)")
        }
        progress(String(format: "load: %d transactions in %.1f s", load.loaded, load.loadTime.seconds))

        // The months: the last one ended is last month (the store's clock is this machine's).
        let lastMonth = LedgerMonth.previous(String(Timestamp.today().prefix(7)))
        var first = lastMonth
        for _ in 1..<max(1, configuration.months) { first = LedgerMonth.previous(first) }
        let firstMonth = first
        let entries = try addManualItems(client, checking: load.walletIds[0], from: firstMonth, to: lastMonth)
        progress("net worth history: \(entries) valuations and liability entries from \(firstMonth) to \(lastMonth)")

        // The back-fill, as ledgerly-alerts does it.
        let missingBefore = try client.call(NetWorthSnapshotListRequest(recompute: false, includeItems: false)).missing
        var takeTimes: [Duration] = []
        var created = 0
        let backfillStarted = ContinuousClock.now
        for month in missingBefore.sorted() {
            let started = ContinuousClock.now
            let reply = try client.call(NetWorthSnapshotTakeRequest(month: month), key: "networth:\(month)")
            takeTimes.append(ContinuousClock.now - started)
            if reply.created { created += 1 }
        }
        let backfillTime = ContinuousClock.now - backfillStarted
        progress(String(format: "back-fill: %d months in %.2f s", missingBefore.count, backfillTime.seconds))

        let range = NetWorthSnapshotListRequest(from: firstMonth, to: lastMonth, recompute: false, includeItems: false)
        let list = try time("networth.snapshot.list \(firstMonth)…\(lastMonth)", range, client) { $0.snapshots.count }
        let get = try time("networth.get (today)", NetWorthRequest(), client) { $0.items.count }
        let after = try client.call(NetWorthSnapshotListRequest(recompute: false, includeItems: false))

        var recomputeTime: Duration?, recomputeDiffers: Int?
        if configuration.recompute {
            let started = ContinuousClock.now
            let reply = try client.call(NetWorthSnapshotListRequest(from: firstMonth, to: lastMonth, recompute: true, includeItems: false))
            recomputeTime = ContinuousClock.now - started
            recomputeDiffers = reply.snapshots.filter { $0.differs ?? true }.count
        }
        var expected: [String] = []
        var month = min(firstMonth, String(SyntheticHistory.firstDay.description.prefix(7)))
        while month <= lastMonth {
            expected.append(month)
            month = LedgerMonth.next(month)
        }
        return NetWorthBenchmarkReport(
            transactionsLoaded: load.loaded, loadTime: load.loadTime, netWorthEntries: entries, databaseBytes: InvestBenchmarkRun.databaseBytes(home),
            missingBefore: missingBefore, expectedMonths: expected, takeTimes: takeTimes, backfillTime: backfillTime, created: created,
            snapshotMonths: after.snapshots.map(\.month), missingAfter: after.missing, list: list, get: get, recomputeTime: recomputeTime,
            recomputeDiffers: recomputeDiffers, todayComplete: try client.call(NetWorthRequest()).complete)
    }

    /// A house bought in the first month (revalued every twelve months), a mortgage taken on it
    /// the same day and paid on the 5th of every month from Checking, and from the synthetic
    /// history's first month (when its USD rates start) a volatile crypto holding in USD revalued
    /// on the 20th of every month. Returns the valuations and entries recorded.
    private func addManualItems(_ client: RequestClient, checking: Int64, from firstMonth: String, to lastMonth: String) throws -> Int {
        let house = try client.call(ManualAssetCreateRequest(name: "House", assetType: .tangible, value: "350000.00", currency: "EUR", valuedOn: "\(firstMonth)-01"))
        let mortgage = try client.call(LiabilityCreateRequest(name: "Mortgage", liabilityType: .mortgage, balance: "280000.00", currency: "EUR", balanceOn: "\(firstMonth)-01",
                                                              interestRate: "2.10"))
        let cryptoStart = max(firstMonth, String(SyntheticHistory.firstDay.description.prefix(7)))
        var entries = 2
        var crypto: ManualAssetRecord?
        var month = firstMonth, index = 0
        while month <= lastMonth {
            if index > 0 && index % 12 == 0 {
                _ = try client.call(ManualAssetRevalueRequest(id: house.id, value: Self.cents(35_000_000 + Int64(index / 12) * 1_050_000), date: "\(month)-01"))
                entries += 1
            }
            _ = try client.call(LiabilityPayRequest(id: mortgage.id, walletId: checking, amount: "1000.00", date: "\(month)-05"), key: "bench-mortgage-\(month)")
            entries += 1
            if month >= cryptoStart {
                // Between 2,000.00 and 9,999.99 USD, moving by month.
                let value = Self.cents(200_000 + Int64((index * 7_919) % 800_000))
                if let asset = crypto {
                    _ = try client.call(ManualAssetRevalueRequest(id: asset.id, value: value, date: "\(month)-20"))
                } else {
                    crypto = try client.call(ManualAssetCreateRequest(name: "Crypto", assetType: .intangible, value: value, currency: "USD", valuedOn: "\(month)-20",
                                                                      volatile: true))
                }
                entries += 1
            }
            month = LedgerMonth.next(month)
            index += 1
        }
        return entries
    }

    static func cents(_ minor: Int64) -> String {
        let cents = minor % 100
        return "\(minor / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// One untimed request, then `repetitions` timed ones: encoded, sent, the reply frame
    /// received and decoded (as `InvestBenchmarkRun` times its requests).
    private func time<Request: RequestBody>(_ name: String, _ request: Request, _ client: RequestClient, items: (Request.Reply) -> Int) throws -> RoundTrips {
        let trips = try RoundTrips.measure(name, request, client, repetitions: configuration.repetitions, items: items)
        progress(String(format: "%@: median %.1f ms", name, trips.median.benchMilliseconds))
        return trips
    }
}
