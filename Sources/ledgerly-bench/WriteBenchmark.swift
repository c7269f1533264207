import ArgumentParser
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// `ledgerly-bench writes`: starts a real `ledgerly-store` on a temporary home and measures
/// `tx.create` over ipc, each write durable (committed with the chosen durability) and published.
struct WriteBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writes",
        abstract: "Round-trip latency of tx.create and writes/s with concurrent clients.")

    @Option(help: "Sequential requests for the latency run.") var requests = 2_000
    @Option(help: "Concurrent client counts for the throughput runs (comma-separated).") var clients = "1,4,8"
    @Option(help: "Requests per client in each throughput run.") var perClient = 1_000
    @Option(help: "Store durability: full or normal.") var durability = "full"

    func run() throws {
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lbench-\(UUID().uuidString.prefix(8))"))
        try home.prepare()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let store = try ServiceProcess(home: home, arguments: ["--durability", durability])
        defer { store.terminate() }
        let context = try ZMQContext()
        let setup = RequestClient(.store, home: home, context: context)
        _ = try setup.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        let wallet = try setup.call(WalletCreateRequest(name: "Bench", currency: "EUR"))
        let events = try EventCounter(context: context, endpoint: home.storeEventsEndpoint)

        print("ledgerly-bench writes: tx.create over \(home.storeCommandEndpoint), durability=\(durability), libzmq \(ZMQContext.version)")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")

        var latencies: [Duration] = []
        latencies.reserveCapacity(requests)
        for index in 0..<requests {
            let started = ContinuousClock.now
            _ = try setup.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", notes: "latency \(index)", date: "2026-11-21"))
            latencies.append(ContinuousClock.now - started)
        }
        latencies.sort()
        print("latency (sequential, \(requests) requests): median \(latencies[latencies.count / 2].microseconds) µs, p99 \(latencies[Int(Double(latencies.count) * 0.99)].microseconds) µs, max \(latencies.last!.microseconds) µs")

        var expectedEvents = requests
        for count in clients.split(separator: ",").compactMap({ Int($0) }) {
            let started = ContinuousClock.now
            let group = DispatchGroup()
            let failures = FailureCount()
            for client in 0..<count {
                group.enter()
                Thread {
                    defer { group.leave() }
                    let requester = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 10_000, attempts: ClientTiming.standard.attempts))
                    for index in 0..<perClient {
                        do {
                            _ = try requester.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", notes: "c\(client)-\(index)", date: "2026-11-21"))
                        } catch {
                            failures.add()
                        }
                    }
                    requester.close()
                }.start()
            }
            group.wait()
            let elapsed = ContinuousClock.now - started
            let total = count * perClient
            let seconds = elapsed.seconds
            expectedEvents += total
            print("throughput (\(count) client\(count == 1 ? "" : "s") × \(perClient)): \(Int(Double(total) / seconds)) writes/s, \(failures.value) failed")
        }
        let received = events.waitFor(expectedEvents, seconds: 10)
        print("events published and received by a subscriber: \(received) of \(expectedEvents)")
    }
}
