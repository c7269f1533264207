import ArgumentParser
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting

/// `ledgerly-bench sync`: several devices on one machine, each with its own home, store and
/// `ledgerly-sync`, meeting through a real PostgreSQL hub (a temporary cluster). Once they share
/// one ledger, every device records `--changes` new transactions at the same time; the benchmark
/// times until every device holds all of them and says it is synced, and prints the messages per
/// second pushed and pulled. It then checks that every device has the same balances and the same
/// transactions (by content: ids differ where devices numbered their own work first).
struct SyncBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Three devices each make 10,000 changes through a real PostgreSQL hub; time until all converge, messages/s pushed and pulled.",
        discussion: "Example: swift build -c release --static-swift-stdlib --product ledgerly-store (and ledgerly-sync, ledgerly, ledgerly-bench), then .build/release/ledgerly-bench sync")

    @Option(help: "Devices (2-8).") var devices = 3
    @Option(help: "New transactions each device records.") var changes = 10_000
    @Option(help: "Transactions per tx.import a device sends.") var batch = 1_000
    @Option(help: "Seconds after which the run gives up waiting for convergence.") var limit = 900
    @Option(name: .customLong("hub-sslmode"), help: "The hub connection: verify-full (TLS, certificate verified: what devices use) or disable (plain TCP, to see what TLS costs).") var hubSSLMode = "verify-full"

    func validate() throws {
        guard (2...8).contains(devices) else { throw ValidationError("--devices must be 2 to 8") }
        guard changes > 0, batch > 0, limit > 0 else { throw ValidationError("--changes, --batch and --limit must be positive") }
        guard ["verify-full", "disable"].contains(hubSSLMode) else { throw ValidationError("--hub-sslmode must be verify-full or disable") }
    }

    func run() throws {
        say("ledgerly-bench sync: \(devices) devices × \(changes) changes, batches of \(batch), \(ProcessInfo.processInfo.activeProcessorCount) cores, binaries in \(ServiceHarness.binaryDirectory.path)")
        let hub = try TemporaryPostgres()
        defer { hub.destroy() }
        let passphrase = "benchmark ledger passphrase with six words"
        var homes: [ServiceHarness] = []
        for index in 0..<devices {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.start(.sync, extraArguments: ["--round-interval", "1"])
            let file = harness.home.root.appendingPathComponent("passphrase")
            try Data((passphrase + "\n").utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            if index == 0 {
                try harness.setUp()
                _ = try harness.client().call(WalletCreateRequest(name: "Shared", currency: "EUR"))
            }
            let enabled = try harness.cli(["sync", "enable", "--url", hub.url(sslmode: hubSSLMode), "--passphrase-file", file.path])
            guard enabled.status == 0 else { throw BenchmarkError.commandFailed("device \(index + 1) could not enable sync: \(enabled.stderr)") }
            homes.append(harness)
        }
        try waitUntil("every device has the shared wallet", seconds: 120) {
            try homes.allSatisfy { try !$0.client().call(WalletListRequest()).wallets.isEmpty }
        }
        say("  \(devices) devices share one ledger; recording \(changes) transactions on each at once")

        let devices = homes
        // CPU time of each device's ledgerly-sync and ledgerly-store over the timed window.
        func cpu(_ service: ServiceHarness.ServiceName) -> Double {
            homes.compactMap { $0.pid(service).flatMap(ProcessCPUTime.init(pid:))?.totalSeconds }.reduce(0, +)
        }
        let syncCPUBefore = cpu(.sync), storeCPUBefore = cpu(.store)
        let started = ContinuousClock.now
        let total = self.devices * changes
        let pushedAt = Locked<[Int: ContinuousClock.Instant]>([:])
        let changes = self.changes, batch = self.batch
        DispatchQueue.concurrentPerform(iterations: devices.count) { index in
            let client = devices[index].client(timeoutMilliseconds: 60_000)
            let wallet = (try? client.call(WalletListRequest()).wallets.first?.id) ?? 1
            for start in stride(from: 0, to: changes, by: batch) {
                let items = (start..<min(start + batch, changes)).map { number in
                    TransactionImportItem(transaction: TransactionCreateRequest(
                        kind: .expense, walletId: wallet, amount: "\(1 + number % 50).\(String(format: "%02d", number % 100))",
                        notes: "device \(index + 1) change \(number)", date: "2026-\(String(format: "%02d", 1 + number % 12))-\(String(format: "%02d", 1 + number % 28))"))
                }
                _ = try? client.call(TransactionImportRequest(importId: "bench-\(index)-\(start)", items: items))
            }
        }
        let recorded = ContinuousClock.now - started
        say(String(format: "  recorded: %d transactions in %.1f s", total, recorded.seconds))
        try waitUntil("every device holds all \(total) and is synced", seconds: Double(limit)) {
            var done = true
            for (index, harness) in homes.enumerated() {
                let status = try harness.client().call(SyncStatusRequest())
                if status.waitingOut == 0 { pushedAt.withLock { if $0[index] == nil { $0[index] = .now } } }
                let count = try harness.client().call(TransactionListRequest(limit: 1)).total
                if count != total || status.state != "synced" { done = false }
            }
            return done
        }
        let converged = ContinuousClock.now - started
        let syncCPU = cpu(.sync) - syncCPUBefore, storeCPU = cpu(.store) - storeCPUBefore
        let pushedBy = (pushedAt.withLock { $0.values.max() } ?? .now) - started
        say(String(format: "converged: all %d devices hold %d transactions, synced, %.1f s after the first change", devices.count, total, converged.seconds))
        say(String(format: "pushed: %d messages in %.1f s = %.0f messages/s (all devices together)", total, pushedBy.seconds, Double(total) / pushedBy.seconds))
        say(String(format: "pulled and applied: %d messages (each device the others') in %.1f s = %.0f messages/s", total * (devices.count - 1), converged.seconds,
                   Double(total * (devices.count - 1)) / converged.seconds))
        // Messages each device's ledgerly-sync moved: its own pushed, the others' pulled.
        let moved = Double(total * devices.count)
        say(String(format: "cpu (user+sys, all devices, first change to converged): ledgerly-sync %.2f s = %.2f ms per message moved; ledgerly-store %.2f s",
                   syncCPU, syncCPU * 1_000 / moved, storeCPU))
        let rows = try hub.psql("SELECT count(*), sum(length(sealed)) FROM ledgerly_messages", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
        say("hub: messages and sealed bytes: \(rows.replacingOccurrences(of: "|", with: ", "))")

        // The same ledger everywhere: each wallet's balance, and every transaction by content.
        let ledgers = try homes.map { harness in
            let client = harness.client(timeoutMilliseconds: 60_000)
            let balances = try client.call(WalletListRequest(includeArchived: true)).wallets.map { "\($0.name)=\($0.balance)" }.sorted()
            var lines: [String] = []
            var cursor: TransactionListCursor?
            repeat {
                let page = try client.call(TransactionListRequest(limit: 5_000, after: cursor))
                lines += page.transactions.map { "\($0.date) \($0.amount) \($0.notes ?? "") \($0.createdAt)" }
                cursor = page.next
            } while cursor != nil
            return balances.joined(separator: ",") + "\n" + lines.sorted().joined(separator: "\n")
        }
        let same = Set(ledgers).count == 1
        say("every device has the same balances and transactions: \(same ? "yes" : "NO")")
        if !same { throw ExitCode.failure }
    }

    private func waitUntil(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return }
            Thread.sleep(forTimeInterval: 0.25)
        }
        throw BenchmarkError.commandFailed("gave up after \(Int(seconds)) s waiting until \(what)")
    }
}

/// A value several threads update under a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
