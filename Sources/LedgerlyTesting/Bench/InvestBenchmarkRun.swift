import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// What an `invest` benchmark run does (`ledgerly-bench invest`; the test suite runs a tiny one).
public struct InvestBenchmarkConfiguration: Sendable {
    /// The folder holding `ledgerly-store`.
    public var binaries: URL
    public var assets: Int
    public var trades: Int
    public var splits: Int
    /// Timed requests of each kind (after one untimed warm-up request each).
    public var repetitions: Int
    /// The year of the one-year `invest.gains`.
    public var year: Int
    /// Lines per `invest.trade.import` request (the store takes at most 10,000).
    public var batch: Int
    /// Kept after the run when given; else a new folder in /tmp, removed afterwards.
    public var workDirectory: URL?

    public init(binaries: URL, assets: Int = 1_000, trades: Int = 100_000, splits: Int = 5, repetitions: Int = 20, year: Int = 2024, batch: Int = 10_000,
                workDirectory: URL? = nil) {
        self.binaries = binaries
        self.assets = assets
        self.trades = trades
        self.splits = splits
        self.repetitions = repetitions
        self.year = year
        self.batch = batch
        self.workDirectory = workDirectory
    }
}

/// Round trips of one request: from the request sent to the reply decoded, over the real socket.
public struct RoundTrips: Sendable {
    public let name: String
    /// Each timed request, in the order they ran.
    public let times: [Duration]
    /// Of each, the part spent decoding the reply in the client.
    public let decodeTimes: [Duration]
    /// The reply frame, in bytes (the same every time).
    public let replyBytes: Int
    /// Holdings or sales in the reply.
    public let items: Int

    public var sorted: [Duration] { times.sorted() }
    public var min: Duration { sorted.first ?? .zero }
    public var max: Duration { sorted.last ?? .zero }
    public var median: Duration { sorted.isEmpty ? .zero : sorted[sorted.count / 2] }
    /// Nearest rank.
    public var p95: Duration { sorted.isEmpty ? .zero : sorted[Swift.max(0, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)] }
    public var medianDecode: Duration { decodeTimes.isEmpty ? .zero : decodeTimes.sorted()[decodeTimes.count / 2] }

    /// One untimed request, then `repetitions` timed ones: encoded, sent, the reply frame
    /// received and decoded. Shared by the invest and net-worth benchmarks.
    static func measure<Request: RequestBody>(_ name: String, _ request: Request, _ client: RequestClient, repetitions: Int,
                                              items: (Request.Reply) -> Int) throws -> RoundTrips {
        var times: [Duration] = [], decodeTimes: [Duration] = []
        var bytes = 0, count = 0
        for repetition in 0...repetitions {
            let envelope = Envelope(type: Request.messageType.rawValue, body: request)
            let started = ContinuousClock.now
            let frame = try MessageCoding.encode(envelope)
            let replyFrame = try client.exchange(frame, id: envelope.id)
            let received = ContinuousClock.now
            let reply = try RequestClient.decodeReply(replyFrame, as: Request.Reply.self, expectedType: Request.messageType.replyType)
            let decoded = ContinuousClock.now
            bytes = replyFrame.count
            count = items(reply)
            guard repetition > 0 else { continue }
            times.append(decoded - started)
            decodeTimes.append(decoded - received)
        }
        return RoundTrips(name: name, times: times, decodeTimes: decodeTimes, replyBytes: bytes, items: count)
    }
}

public struct InvestBenchmarkReport: Sendable {
    public let assets: Int
    public let tradesLoaded: Int
    public let splits: Int
    public let loadTime: Duration
    public let pricesTime: Duration
    public let databaseBytes: Int
    public let holdings: RoundTrips
    /// The first page of 100 holdings, with the totals over every holding: what a screen shows.
    public let holdingsPage: RoundTrips
    /// The first page's totals and `holdingCount` are the full reply's.
    public let holdingsPageMatch: Bool
    /// The year's first page of 100 sales, with the year's totals: what a screen shows.
    public let gainsPage: RoundTrips
    public let gainsYear: RoundTrips
    public let gainsAll: RoundTrips
    /// Every asset's quantity in `invest.holdings` is what the generated history leaves.
    public let holdingsMatch: Bool
    /// Sales the history holds in all, and in the benchmark's year.
    public let expectedSales: Int
    public let expectedSalesInYear: Int
    /// Holdings whose reply had a value (a price and, for USD assets, a rate).
    public let valuedHoldings: Int
}

/// Loads a synthetic investment history into a real `ledgerly-store` on a temporary home, sets a
/// price for every asset, and times `invest.holdings` and `invest.gains` (one year, all years).
public struct InvestBenchmarkRun {
    public let configuration: InvestBenchmarkConfiguration
    private let progress: (String) -> Void

    public init(_ configuration: InvestBenchmarkConfiguration, progress: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.progress = progress
    }

    public func run() throws -> InvestBenchmarkReport {
        let root = configuration.workDirectory ?? URL(fileURLWithPath: "/tmp/lbench-invest-\(UUID().uuidString.prefix(8))")
        let home = LedgerlyHome(root: root.appendingPathComponent("home"))
        try home.prepare()
        defer { if configuration.workDirectory == nil { try? FileManager.default.removeItem(at: root) } }
        let store = try StoreProcess(binaries: configuration.binaries, home: home)
        defer { store.stop() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 300_000, attempts: 1))
        defer { client.close() }

        let history = InvestHistory(assets: configuration.assets, trades: configuration.trades, splits: configuration.splits)
        progress("generated \(history.tradeCount) trades (\(history.count(.buy)) buys, \(history.count(.sell)) sales, \(history.count(.dividend)) dividends) for \(history.assets.count) assets, \(history.splitCount) splits")

        _ = try client.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        let now = Timestamp.now()
        _ = try client.call(RateBatchRequest(profileId: 1, source: "ecb", rates: [RateInput(base: "EUR", quote: "USD", rate: "1.0825", asOf: now)]))
        let wallet = try client.call(WalletCreateRequest(name: "Broker cash", currency: "EUR"))
        let accounts = try InvestHistory.accounts.map { try client.call(InvestAccountCreateRequest(name: $0.name, costBasisMethod: $0.method)).id }
        var assetIds: [Int64] = []
        for asset in history.assets {
            assetIds.append(try client.call(AssetCreateRequest(symbol: asset.symbol, assetType: asset.assetType, quoteCurrency: asset.quoteCurrency, provider: .manual,
                                                               allocationGroup: asset.group)).id)
        }

        // Trades: each account's lines, asset after asset (each asset's in date order), in
        // requests of `batch` lines, sent in order.
        let loadStarted = ContinuousClock.now
        var loaded = 0
        for (accountIndex, accountId) in accounts.enumerated() {
            let lines = history.assets.filter { $0.account == accountIndex }.flatMap(\.lines)
            for start in stride(from: 0, to: lines.count, by: configuration.batch) {
                let chunk = lines[start..<Swift.min(start + configuration.batch, lines.count)].enumerated().map { offset, line in
                    var line = line
                    line.line = offset + 1
                    return line
                }
                let reply = try client.call(TradeImportRequest(accountId: accountId, walletId: wallet.id, lines: chunk))
                guard reply.duplicates.isEmpty else { throw InvestBenchmarkError.mismatch("lines taken for duplicates: \(reply.duplicates.prefix(5))") }
                loaded += reply.imported
            }
            progress("account \(accountIndex + 1) of \(accounts.count) loaded: \(loaded) trades so far")
        }
        for (index, asset) in history.assets.enumerated() where asset.split {
            _ = try client.call(TradeSplitRequest(assetId: assetIds[index], ratio: "2:1", date: InvestHistory.splitDate))
            loaded += 1
        }
        let loadTime = ContinuousClock.now - loadStarted
        progress(String(format: "load: %d trades in %.1f s", loaded, loadTime.seconds))

        let pricesStarted = ContinuousClock.now
        let snapshots = history.assets.enumerated().map { index, asset in
            PriceSnapshotInput(assetId: assetIds[index], price: InvestHistory.cents(asset.closeCents), currency: asset.quoteCurrency, source: "bench", asOf: now, confidence: .manual)
        }
        for start in stride(from: 0, to: snapshots.count, by: 1_000) {
            _ = try client.call(PriceRecordRequest(snapshots: Array(snapshots[start..<Swift.min(start + 1_000, snapshots.count)])))
        }
        let pricesTime = ContinuousClock.now - pricesStarted

        let holdings = try time("invest.holdings", HoldingsRequest(), client) { $0.holdings.count }
        let holdingsPage = try time("invest.holdings, first 100 holdings", HoldingsRequest(limit: 100), client) { $0.holdings.count }
        let gainsPage = try time("invest.gains --year \(configuration.year), first 100 sales", GainsRequest(year: configuration.year, limit: 100), client) { $0.sales.count }
        let gainsYear = try time("invest.gains --year \(configuration.year)", GainsRequest(year: configuration.year), client) { $0.sales.count }
        let gainsAll = try time("invest.gains (all years)", GainsRequest(), client) { $0.sales.count }

        // The replies against the history.
        let reply = try client.call(HoldingsRequest())
        let firstPage = try client.call(HoldingsRequest(limit: 100))
        // Ages are counted when each reply is made, so they are left out of the comparison.
        let withoutAges = { (holdings: [HoldingRecord]) in holdings.map { holding in
            var holding = holding
            holding.price?.ageSeconds = 0
            return holding
        } }
        let holdingsPageMatch = firstPage.totals == reply.totals && firstPage.holdingCount == reply.holdings.count
            && withoutAges(firstPage.holdings) == withoutAges(Array(reply.holdings.prefix(100)))
        var held: [String: Decimal] = [:]
        for holding in reply.holdings { held[holding.symbol, default: 0] += Decimal(string: holding.quantity) ?? -1 }
        var expected: [String: Decimal] = [:]
        for asset in history.assets where asset.heldTenths > 0 { expected[asset.symbol] = Decimal(string: InvestHistory.tenths(asset.heldTenths)) }
        return InvestBenchmarkReport(
            assets: history.assets.count, tradesLoaded: loaded, splits: history.splitCount, loadTime: loadTime, pricesTime: pricesTime,
            databaseBytes: Self.databaseBytes(home), holdings: holdings, holdingsPage: holdingsPage, holdingsPageMatch: holdingsPageMatch, gainsPage: gainsPage, gainsYear: gainsYear, gainsAll: gainsAll,
            holdingsMatch: held == expected, expectedSales: history.count(.sell), expectedSalesInYear: history.sales(inYear: configuration.year),
            valuedHoldings: reply.holdings.filter { $0.valueBase != nil }.count)
    }

    private func time<Request: RequestBody>(_ name: String, _ request: Request, _ client: RequestClient, items: (Request.Reply) -> Int) throws -> RoundTrips {
        let trips = try RoundTrips.measure(name, request, client, repetitions: configuration.repetitions, items: items)
        progress(String(format: "%@: median %.1f ms", name, trips.median.benchMilliseconds))
        return trips
    }

    static func databaseBytes(_ home: LedgerlyHome) -> Int {
        ["", "-wal", "-shm"].compactMap { suffix in
            try? URL(fileURLWithPath: home.databaseURL.path + suffix).resourceValues(forKeys: [.fileSizeKey]).fileSize
        }.reduce(0, +)
    }
}

public enum InvestBenchmarkError: Error, CustomStringConvertible {
    case storeDidNotStart
    case mismatch(String)

    public var description: String {
        switch self {
        case .storeDidNotStart: "ledgerly-store did not answer status within 30 s"
        case .mismatch(let what): "mismatch: \(what)"
        }
    }
}

/// `ledgerly-store` started from `binaries` on `home`, its output in `<home>/logs/ledgerly-store.log`.
final class StoreProcess {
    private let process = Process()

    init(binaries: URL, home: LedgerlyHome) throws {
        process.executableURL = binaries.appendingPathComponent(LedgerlyService.store.name)
        process.arguments = ["--home", home.root.path]
        try FileManager.default.createDirectory(at: home.logDirectory, withIntermediateDirectories: true)
        let logURL = home.logDirectory.appendingPathComponent("\(LedgerlyService.store.name).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try log.close()
        let context = try ZMQContext()
        let probe = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 200, attempts: 1))
        defer { probe.close() }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if (try? probe.call(StatusRequest())) != nil { return }
            probe.close()
        }
        stop()
        throw InvestBenchmarkError.storeDidNotStart
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

extension Duration {
    /// Milliseconds as a floating-point figure, for printing timings (never money).
    public var benchMilliseconds: Double { Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15 }
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
