import ArgumentParser
import LedgerlyRuntime
import LedgerlySync

/// `ledgerly-sync`: parse, build the services, run.
@main
struct SyncCommand: AsyncParsableCommand {
    static let configuration = ServiceOptions.configuration(
        for: .sync, abstract: "moves sealed change messages between this device's store and the sync hub (a PostgreSQL server you control); idle while sync is off.")

    @OptionGroup var options: ServiceOptions

    @Option(name: .customLong("round-interval"), help: "Seconds between rounds with the hub while nothing changes (1-3600).")
    var roundInterval: Int = 5

    func validate() throws {
        guard (1...3_600).contains(roundInterval) else { throw ValidationError("--round-interval must be 1 to 3600 seconds, got \(roundInterval)") }
    }

    func run() async throws {
        await ServiceLauncher.launch(.sync, options: options) { home, logger in
            try SyncService(home: home, logger: logger, interval: .seconds(roundInterval)).services
        }
    }
}
