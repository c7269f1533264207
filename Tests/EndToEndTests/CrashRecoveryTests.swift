import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization
import Testing

/// Counts acknowledged writes for the thread that kills the store mid-burst.
final class BurstProgress: Sendable {
    private let state = Mutex((acknowledged: 0, restarted: false))
    var acknowledged: Int { state.withLock { $0.acknowledged } }
    var restarted: Bool { state.withLock { $0.restarted } }
    func acknowledge() { state.withLock { $0.acknowledged += 1 } }
    func markRestarted() { state.withLock { $0.restarted = true } }
}

extension EndToEndTests {
    /// Reliability rules 2, 4 and 6 (docs/architecture.md): a client that retries with the same key, and a store killed
    /// with SIGKILL in the middle of a burst: every acknowledged write is there exactly once.
    @Suite struct CrashRecoveryTests {
        @Test func killingTheStoreDuringABurstLosesAndDuplicatesNothing() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 400, attempts: 50)
            let wallet = try client.call(WalletCreateRequest(name: "Burst", currency: "EUR", startingBalance: "10000.00"))

            let total = 300
            let progress = BurstProgress()
            let killer = Thread {
                while progress.acknowledged < 100 { usleep(1_000) }
                harness.stop(.store, signal: SIGKILL)
                try? harness.start(.store)
                progress.markRestarted()
            }
            killer.start()

            var replies: [TransactionRecord] = []
            for index in 0..<total {
                let reply = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", notes: "burst-\(index)", date: "2026-11-21"))
                replies.append(reply)
                progress.acknowledge()
            }
            try harness.waitFor("the killer thread to restart the store") { progress.restarted }

            let stored = try client.call(TransactionListRequest(walletId: wallet.id, limit: 10_000))
            #expect(stored.total == total)
            #expect(Set(stored.transactions.map(\.id)) == Set(replies.map(\.id)))
            let notes = stored.transactions.compactMap(\.notes)
            #expect(Set(notes).count == total)
            #expect(try client.call(WalletGetRequest(id: wallet.id)).balance == "9700.00")
            #expect(harness.log(.store).components(separatedBy: "ready").count - 1 == 2)
            // Both starts made SQLite's process-wide settings before it started (D371).
            #expect(!harness.log(.store).contains("SQLite had started before its settings were made"))
        }

        @Test func aRetriedWriteIsAppliedOnceAndGetsTheOriginalReply() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let key = "retry-\(UUID().uuidString)"
            let first = try client.call(WalletCreateRequest(name: "Once", currency: "EUR"), key: key)
            let second = try client.call(WalletCreateRequest(name: "Once", currency: "EUR"), key: key)
            #expect(first == second)
            #expect(try client.call(WalletListRequest()).wallets.count == 1)
            #expect(throws: ClientError.self) { try client.call(WalletCreateRequest(name: "Other", currency: "EUR"), key: key) }
            do throws(ClientError) {
                _ = try client.call(WalletCreateRequest(name: "Other", currency: "EUR"), key: key)
            } catch {
                #expect(error.errorCode == .conflict)
            }
        }

        @Test func aClientOfAStoppedServiceGetsAClearErrorInBoundedTime() throws {
            let harness = try ServiceHarness()
            // Never started: no socket file, so the client says so at once (issue 12: it used to
            // wait out every try).
            let client = harness.client(timeoutMilliseconds: 200, attempts: 3)
            var started = ContinuousClock.now
            do throws(ClientError) {
                _ = try client.call(StatusRequest())
                Issue.record("expected the call to fail")
            } catch {
                guard case .notRunning = error else { Issue.record("expected notRunning, got \(error)"); return }
                #expect(error.description.contains("ledgerly-store is not running"))
            }
            #expect(ContinuousClock.now - started < .milliseconds(400), "three tries would take 600 ms")
            started = ContinuousClock.now
            let never = try harness.cli("wallet", "list")
            #expect(never.status == 3)
            #expect(never.stderr.contains("not running"))
            #expect(never.stderr.contains("deploy/start.sh"), "a source build's hint names the script")
            #expect(ContinuousClock.now - started < .seconds(2))

            // Stopped cleanly: it removes its socket files, so again nothing waits.
            try harness.start(.store)
            harness.stop(.store)
            #expect(!FileManager.default.fileExists(atPath: String(harness.home.storeCommandEndpoint.dropFirst("ipc://".count))))
            started = ContinuousClock.now
            let stopped = try harness.cli("wallet", "list")
            #expect(stopped.status == 3)
            #expect(stopped.stderr.contains("not running"), "\(stopped.stderr)")
            #expect(ContinuousClock.now - started < .seconds(2))

            // Killed: its socket file stays, so the tries are waited out, within a bound.
            try harness.start(.store)
            harness.stop(.store, signal: SIGKILL)
            started = ContinuousClock.now
            do throws(ClientError) {
                _ = try client.call(StatusRequest())
                Issue.record("expected the call to fail")
            } catch {
                guard case .unavailable = error else { Issue.record("expected unavailable, got \(error)"); return }
                #expect(error.description.contains("ledgerly-store is not answering"))
            }
            #expect(ContinuousClock.now - started < .seconds(3))
            let cli = try harness.cli("wallet", "list", "--timeout", "200")
            #expect(cli.status == 3)
            // The CLI reads the store's free lock, so it waits out no tries (D616).
            #expect(cli.stderr.contains("ledgerly-store is not running (its lock"), "\(cli.stderr)")
        }

        @Test func aSecondStoreOnTheSameHomeRefusesToStart() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let second = Process()
            second.executableURL = ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly-store")
            second.arguments = ["--home", harness.home.root.path]
            let err = Pipe()
            second.standardError = err
            try second.run()
            let output = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            second.waitUntilExit()
            #expect(second.terminationStatus == 1)
            #expect(output.contains("another instance"))
            #expect(harness.status(.store) != nil)
        }
    }
}
