import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Synchronization
import ZeroMQ

/// `kill -9` chaos on a real Ledgerly: the three services on a temporary home, `writers` clients
/// each recording `writesPerWriter` expenses in a budgeted category (retrying every write with its
/// idempotency key until it is acknowledged), while the store, the rates and the alerts service
/// are killed in turn and started again. At the end every service runs, the subscribers catch up,
/// and the run checks what the reliability rules promise (docs/reliability.md): every
/// acknowledged write is stored exactly once, the wallet's balance equals its transactions, every
/// budget threshold the spending implies has exactly one alert, the subscribers' lag is 0, and a
/// backup of the database passes `PRAGMA integrity_check`.
///
/// Used by the end-to-end test suite (small and bounded) and by `ledgerly-bench chaos` (large).
public final class ChaosRun: Sendable {
    public let configuration: ChaosConfiguration
    private let progress: @Sendable (String) -> Void

    public init(_ configuration: ChaosConfiguration, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.progress = progress
    }

    /// The budget's limit: the run's whole spending, so by the end every threshold (50, 80, 100 %)
    /// is crossed while services are being killed.
    private var totalSpending: Int { configuration.writers * configuration.writesPerWriter }

    public func run() throws -> ChaosReport {
        let started = ContinuousClock.now
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lchaos-" + String(UUID().uuidString.prefix(8)).lowercased()))
        try home.prepare()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try Data(#"{"providers": []}"#.utf8).write(to: home.root.appendingPathComponent("rates.json"))
        let context = try ZMQContext()
        let services = ChaosServices(home: home, binaries: configuration.binaries, context: context)
        defer { services.stopAll() }
        for service in LedgerlyService.allCases { try services.start(service) }

        let setup = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 2_000, attempts: 10))
        defer { setup.close() }
        _ = try setup.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        let startingBalance = totalSpending + 1_000
        let wallet = try setup.call(WalletCreateRequest(name: "Chaos", currency: "EUR", startingBalance: "\(startingBalance)"))
        let food = try setup.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let budget = try setup.call(BudgetSetRequest(categoryId: food.id, limit: "\(totalSpending)"))
        let today = Timestamp.today()

        var report = ChaosReport()
        let tally = WriterTally()
        progress("chaos: \(configuration.writers) writers × \(configuration.writesPerWriter) writes, \(configuration.kills) kills")

        var threads: [Thread] = []
        for writer in 0..<configuration.writers {
            let thread = Thread { [configuration] in
                // Each try waits 500 ms; 240 tries ride out any restart.
                let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 500, attempts: 240))
                defer { client.close(); tally.done.withLock { $0 += 1 } }
                for index in 0..<configuration.writesPerWriter {
                    let note = "chaos-\(writer)-\(index)"
                    do {
                        let reply = try self.retryingWhileNotRunning {
                            try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", categoryId: food.id, notes: note, date: today),
                                            key: "chaos-\(home.root.lastPathComponent)-\(note)")
                        }
                        tally.acknowledged.withLock { $0[reply.id] = note }
                    } catch {
                        tally.failure.withLock { $0 = "\(note): \(error)" }
                        return
                    }
                }
            }
            thread.start()
            threads.append(thread)
        }

        // The killer: store, rates, alerts in turn, each started again at once (every kill is
        // made, even after the writers are done: a restart must also find its way back alone).
        for kill in 0..<configuration.kills {
            let service = LedgerlyService.allCases[kill % LedgerlyService.allCases.count]
            services.kill(service)
            report.kills += 1
            report.killsByService[service.name, default: 0] += 1
            let answered = try services.start(service)
            report.restartToFirstAnswerMilliseconds[service.name, default: []].append(Int(answered.components.seconds * 1_000 + answered.components.attoseconds / 1_000_000_000_000_000))
            Thread.sleep(forTimeInterval: Double(configuration.pauseBetweenKills.components.seconds) + Double(configuration.pauseBetweenKills.components.attoseconds) / 1e18)
        }
        while tally.done.withLock({ $0 }) < configuration.writers { Thread.sleep(forTimeInterval: 0.05) }
        if let failed = tally.failure.withLock({ $0 }) { throw ChaosError.writerFailed(failed) }
        let acked = tally.acknowledged.withLock { $0 }
        report.acknowledged = acked.count
        progress("chaos: writes done (\(acked.count) acknowledged); checking")

        // Subscribers catch up with the store.
        let deadline = ContinuousClock.now + .seconds(60)
        var lag: [String: Int64] = [:]
        repeat {
            guard let store = services.status(.store) else { continue }
            for service in [LedgerlyService.rates, .alerts] {
                let seen = services.status(service)
                lag[service.name] = seen?.epoch == store.epoch ? max(0, store.lastSeq - (seen?.lastSeq ?? 0)) : store.lastSeq
            }
            if lag.values.allSatisfy({ $0 == 0 }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while ContinuousClock.now < deadline
        report.lag = lag

        // Every acknowledged write exactly once, nothing stored that was not acknowledged.
        var stored: [TransactionRecord] = []
        var after: Int64?
        repeat {
            let page = try setup.call(TransactionExportRequest(afterId: after, limit: 5_000))
            stored += page.transactions
            after = page.nextAfterId
        } while after != nil
        let notes = Dictionary(grouping: stored.compactMap(\.notes), by: { $0 })
        report.lost = acked.values.filter { notes[$0] == nil }.count
        report.duplicated = notes.values.map { $0.count - 1 }.reduce(0, +) + stored.filter { acked[$0.id] == nil }.count
        let balance = try setup.call(WalletGetRequest(id: wallet.id)).balance
        report.balanceMatches = balance == "\(startingBalance - stored.count).00"

        // Every threshold the spending implies, alerted exactly once.
        let alerts = try setup.call(AlertListRequest(limit: 1_000)).alerts.filter { $0.kind == .budgetThreshold }
        let month = String(today.prefix(7))
        let spent = stored.count
        for threshold in budget.thresholds where spent * 100 >= threshold * totalSpending {
            let matching = alerts.filter { $0.key == "budget:\(budget.id):\(month):\(threshold)" }
            if matching.isEmpty { report.alertsMissing += 1 }
        }
        let byThreshold = Dictionary(grouping: alerts, by: { "\($0.period ?? "")/\($0.threshold ?? -1)" })
        report.alertsDoubled = byThreshold.values.map { $0.count - 1 }.reduce(0, +)

        // A backup taken now passes SQLite's integrity check.
        let backupPath = home.root.appendingPathComponent("end-of-chaos.sqlite").path
        report.integrity = try setup.call(LedgerBackupRequest(path: backupPath)).integrity
        report.seconds = Double((ContinuousClock.now - started).components.seconds)
        return report
    }

    /// A write sent while the store's socket file is missing (between a kill and its restart)
    /// fails at once as not running: wait and send it again with the same key.
    private func retryingWhileNotRunning<Reply>(_ call: () throws -> Reply) throws -> Reply {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                return try call()
            } catch let error as ClientError {
                guard case .notRunning = error, ContinuousClock.now < deadline else { throw error }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }
}

/// What the writer threads share: the acknowledged writes (transaction id → note), the first
/// failure, and how many writers are done.
private final class WriterTally: Sendable {
    let acknowledged = Mutex<[Int64: String]>([:])
    let failure = Mutex<String?>(nil)
    let done = Mutex(0)
}
