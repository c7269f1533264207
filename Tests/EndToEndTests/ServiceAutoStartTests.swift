import Foundation
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// "No daemon in the way" (issue 48): `--no-start` refuses, and a store killed with `kill -9` is known dead by its free lock.
    @Suite struct ServiceAutoStartTests {
        /// Lets the command start services (the harness turns that off for every other test).
        static let mayStart = ["LEDGERLY_NO_START": ""]

        @Test func noStartRefusesWithTodaysMessage() throws {
            let harness = try ServiceHarness()
            defer { Self.stopStarted(harness) }
            let flag = try harness.cli(["wallet", "list", "--no-start"], environment: Self.mayStart)
            #expect(flag.status == 3)
            #expect(flag.stderr.hasPrefix("error: ledgerly-store is not running (no socket at"), "\(flag.stderr)")
            #expect(flag.stderr.contains("--no-start"))
            let variable = try harness.cli(["wallet", "list"], environment: ["LEDGERLY_NO_START": "1"])
            #expect(variable.status == 3)
            #expect(variable.stderr.contains("LEDGERLY_NO_START"), "\(variable.stderr)")
            #expect(InstanceLock.isHeld(path: LedgerlyService.store.lockPath(in: harness.home)) != true, "nothing started")
        }

        @Test func aStoreKilledWithSignalNineIsKnownByItsLock() throws {
            let harness = try ServiceHarness()
            defer { Self.stopStarted(harness) }
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR").status == 0)
            harness.stop(.store, signal: SIGKILL)
            #expect(FileManager.default.fileExists(atPath: String(harness.home.storeCommandEndpoint.dropFirst("ipc://".count))), "kill -9 leaves the socket")
            // Loose bound: three tries of the default timeout would take 7.5 s (the figure is in
            // the report, D616).
            let started = ContinuousClock.now
            let refused = try harness.cli(["wallet", "list", "--no-start"], environment: Self.mayStart)
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(refused.status == 3)
            #expect(refused.stderr.contains("is not running (its lock"), "\(refused.stderr)")
        }

        /// Stops what a command started: each service's pid is in its lock file.
        static func stopStarted(_ harness: ServiceHarness) {
            let services: [LedgerlyService] = [.store, .rates, .alerts, .sync]
            for service in services where InstanceLock.isHeld(path: service.lockPath(in: harness.home)) == true {
                if let text = try? String(contentsOfFile: service.lockPath(in: harness.home), encoding: .utf8),
                   let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    kill(pid, SIGTERM)
                }
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, services.contains(where: { InstanceLock.isHeld(path: $0.lockPath(in: harness.home)) == true }) {
                usleep(50_000)
            }
        }
    }
}
