import ArgumentParser
import Foundation
import LedgerlyTesting

/// `ledgerly-bench chaos`: the reliability rules under `kill -9`, at scale (the test suite runs a
/// small version): writers retrying with their keys while the store, the rates and the alerts
/// service are killed in turn; prints kills, acknowledged writes, lost, duplicated, alerts
/// missing or doubled, and the time from each restart to the service's first answer.
struct ChaosBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos",
        abstract: "kill -9 the services in turn under concurrent writers; print what was lost, doubled or missing (should be 0).")

    @Option(help: "kill -9s, cycling through ledgerly-store, ledgerly-rates and ledgerly-alerts.") var kills = 60
    @Option(help: "Concurrent writers.") var writers = 8
    @Option(name: .customLong("writes-per-writer"), help: "Transactions each writer records.") var writesPerWriter = 500
    @Option(name: .customLong("pause-ms"), help: "Pause after a restarted service answers before the next kill, in ms.") var pauseMilliseconds = 300

    func run() throws {
        let configuration = ChaosConfiguration(binaries: ServiceProcess.folder, writers: writers, writesPerWriter: writesPerWriter, kills: kills,
                                               pauseBetweenKills: .milliseconds(pauseMilliseconds))
        say("ledgerly-bench chaos: \(writers) writers × \(writesPerWriter) writes, \(kills) kills, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let report = try ChaosRun(configuration, progress: { say($0) }).run()
        for line in report.lines { say(line) }
        if !report.passed { throw ExitCode.failure }
    }
}
