import Foundation
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Two commands typed at once on a home with nothing running (issue 48, D626): both find the
    /// store's lock free and start the services; one store takes the lock, the other leaves.
    /// Before, the command whose store left failed ("ledgerly-store exited as soon as ledgerly
    /// started it"), and a command that found the lock already held sent its request before the
    /// store listened ("not running (no socket …)").
    @Suite struct ServiceAutoStartRaceTests {
        @Test func threeCommandsAtOnceAllReachOneStore() throws {
            // Twice, each on a fresh home: the race is a matter of milliseconds.
            for _ in 0..<2 {
                let harness = try ServiceHarness()
                defer { Self.stopStarted(harness) }
                let outputs = (0..<3).map { _ in Pipe() }
                let commands = outputs.map { pipe in
                    let process = Process()
                    process.executableURL = ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly")
                    process.arguments = ["wallet", "list"]
                    process.environment = ProcessInfo.processInfo.environment.merging(["LEDGERLY_HOME": harness.home.root.path, "LEDGERLY_NO_START": ""]) { $1 }
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = pipe
                    return process
                }
                for command in commands { try command.run() }
                for (command, pipe) in zip(commands, outputs) {
                    let errors = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    command.waitUntilExit()
                    // The home is not set up: every command reaches the store, which says so.
                    #expect(errors.contains("not set up"), "\(command.terminationStatus): \(errors)")
                }
                #expect(InstanceLock.isHeld(path: LedgerlyService.store.lockPath(in: harness.home)) == true)
            }
        }

        /// Stops what the commands started: each service's pid is in its lock file.
        static func stopStarted(_ harness: ServiceHarness) {
            let services: [LedgerlyService] = [.store, .rates, .alerts]
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
