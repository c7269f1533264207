import ArgumentParser
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization
import ZeroMQ

/// `ledgerly-bench alerts`: real `ledgerly-store` and `ledgerly-alerts` on a temporary home, and
/// a real `ledgerly alerts --follow` process. Measures the time from a committed transaction that
/// crosses a budget threshold to the alert line printed by the follower, then the cost of
/// evaluating budgets with many budgets and transactions.
struct AlertBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Threshold-crossing → printed alert latency, and budget evaluation cost with many budgets and transactions.")

    @Option(help: "Threshold crossings to time.") var crossings = 200
    @Option(help: "Budgets for the evaluation run.") var budgets = 500
    @Option(help: "Transactions for the evaluation run.") var transactions = 1_000_000
    @Option(help: "Concurrent clients loading the transactions.") var clients = 4
    @Option(help: "Evaluations to time.") var evaluations = 200
    @Option(name: .customLong("month-sizes"), help: "Transactions in one month at which to time one budget's evaluation (comma-separated; 0 to skip).") var monthSizes = "1000,12000,22000"

    func run() throws {
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lbench-\(UUID().uuidString.prefix(8))"))
        try home.prepare()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try Data(#"{"providers": []}"#.utf8).write(to: home.root.appendingPathComponent("rates.json"))
        let store = try ServiceProcess(home: home, arguments: ["--durability", "full"])
        defer { store.terminate() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 30_000, attempts: ClientTiming.standard.attempts))
        _ = try client.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        let wallet = try client.call(WalletCreateRequest(name: "Bench", currency: "EUR"))
        let alerts = try ServiceProcess(.alerts, home: home, arguments: [])
        defer { alerts.terminate() }
        let follower = try FollowerLines(home: home)
        defer { follower.stop() }
        Thread.sleep(forTimeInterval: 1)
        let today = Timestamp.today()
        say("ledgerly-bench alerts: store (durability full) + ledgerly-alerts + `ledgerly alerts --follow`, \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // 1. Latency: each round a fresh 100 EUR budget and one 60 EUR expense (crosses 50 %).
        var latencies: [Duration] = []
        for round in 0..<crossings {
            let category = try client.call(CategoryCreateRequest(name: "Latency \(round)", kind: .expense))
            _ = try client.call(BudgetSetRequest(categoryId: category.id, limit: "100", thresholds: [50]))
            let before = follower.count
            let committed = ContinuousClock.now
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "60", categoryId: category.id, date: today))
            guard let printed = follower.waitForLine(after: before, seconds: 10) else {
                say("round \(round): no alert line within 10 s")
                continue
            }
            latencies.append(printed - committed)
        }
        latencies.sort()
        if !latencies.isEmpty {
            say("commit → alert line printed by the follower (\(latencies.count) crossings): median \(latencies[latencies.count / 2].microseconds / 1_000) ms, p99 \(latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))].microseconds / 1_000) ms, max \(latencies.last!.microseconds / 1_000) ms")
        }

        // 2. One budget's evaluation as its month fills: the alerts service asks for it on every
        // change, so it must not cost more in a month of 22,000 transactions than in one of 1,000.
        let sizes = monthSizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 > 0 }.sorted()
        if !sizes.isEmpty {
            let busy = try client.call(CategoryCreateRequest(name: "Busy month", kind: .expense))
            let budget = try client.call(BudgetSetRequest(categoryId: busy.id, limit: "1000000", carryOver: true, startMonth: String(today.prefix(7))))
            var loaded = 0
            for size in sizes {
                while loaded < size {
                    let count = min(5_000, size - loaded)
                    let items = (0..<count).map { index in
                        TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", categoryId: busy.id, notes: "busy \(loaded + index)", date: today))
                    }
                    _ = try client.call(TransactionImportRequest(importId: "busy-\(loaded)", items: items))
                    loaded += count
                }
                var times: [Duration] = []
                for _ in 0..<50 {
                    let started = ContinuousClock.now
                    _ = try client.call(BudgetStatusRequest(month: String(today.prefix(7)), budgetIds: [budget.id]))
                    times.append(ContinuousClock.now - started)
                }
                times.sort()
                say("one budget's budget.status with \(size) transactions in its month: median \(times[times.count / 2].microseconds) µs, p99 \(times[min(times.count - 1, 49)].microseconds) µs")
            }
        }

        // 3. Evaluation cost: `budgets` budgets on subcategories of 25 parents, `transactions` spread over them and 5 years.
        var categoryIds: [Int64] = []
        let parents = try (0..<25).map { try client.call(CategoryCreateRequest(name: "Parent \($0)", kind: .expense)).id }
        for index in 0..<budgets {
            let category = try client.call(CategoryCreateRequest(name: "Leaf \(index)", parentId: parents[index % parents.count]))
            categoryIds.append(category.id)
            _ = try client.call(BudgetSetRequest(categoryId: category.id, limit: "5000", startMonth: "2022-01"))
        }
        let leaves = categoryIds
        let loadStarted = ContinuousClock.now
        let failures = FailureCount()
        let group = DispatchGroup()
        let perClient = transactions / clients
        for worker in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                let requester = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 30_000, attempts: ClientTiming.standard.attempts))
                var generator = SplitMix(seed: UInt64(worker + 1))
                for index in 0..<perClient {
                    let day = Int(generator.next() % 1_826)
                    let date = Self.date(daysAfter2022: day)
                    let category = leaves[Int(generator.next() % UInt64(leaves.count))]
                    let cents = 100 + Int(generator.next() % 9_900)
                    do {
                        _ = try requester.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)", categoryId: category, notes: "w\(worker)-\(index)", date: date))
                    } catch {
                        failures.add()
                    }
                    if worker == 0, index > 0, index % 50_000 == 0 { say("  loaded \(index * clients) of \(transactions)…") }
                }
                requester.close()
            }.start()
        }
        group.wait()
        let loadSeconds = (ContinuousClock.now - loadStarted).seconds
        say("loaded \(perClient * clients) transactions (\(failures.value) failed) in \(Int(loadSeconds)) s through tx.create, alerts service following")

        let month = String(today.prefix(7))
        var whole: [Duration] = []
        for _ in 0..<5 {
            let started = ContinuousClock.now
            _ = try client.call(BudgetStatusRequest(month: month))
            whole.append(ContinuousClock.now - started)
        }
        whole.sort()
        say("budget.status, all \(budgets) budgets for \(month): median \(whole[whole.count / 2].microseconds / 1_000) ms")
        var touched: [Duration] = []
        var generator = SplitMix(seed: 99)
        for _ in 0..<evaluations {
            let category = categoryIds[Int(generator.next() % UInt64(categoryIds.count))]
            let started = ContinuousClock.now
            _ = try client.call(BudgetStatusRequest(month: Self.date(daysAfter2022: Int(generator.next() % 1_826)).prefix(7).description, categoryIds: [category]))
            touched.append(ContinuousClock.now - started)
        }
        touched.sort()
        say("evaluation of what one transaction touches (its budget and its parent's, \(evaluations) random months): median \(touched[touched.count / 2].microseconds) µs, p99 \(touched[min(touched.count - 1, Int(Double(touched.count) * 0.99))].microseconds) µs")
    }

    static func date(daysAfter2022 days: Int) -> String {
        var month = 1, year = 2022, rest = days
        while true {
            let length = [31, (year % 4 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            if rest < length { break }
            rest -= length
            month += 1
            if month == 13 { month = 1; year += 1 }
        }
        return String(format: "%04d-%02d-%02d", year, month, rest + 1)
    }
}
