import ArgumentParser
import LedgerlyRuntime

/// `ledgerly-sync`: parse, build the services, run.
/// Its executable's `main.swift` and the multi-call `ledgerly-services` both run it (D504).
public struct SyncCommand: AsyncParsableCommand {
    public static let configuration = ServiceOptions.configuration(
        for: .sync, abstract: "moves sealed change messages between this device's store and the sync hub (a PostgreSQL server you control); idle while sync is off.")

    public init() {}

    @OptionGroup var options: ServiceOptions

    @Option(name: .customLong("round-interval"), help: "Seconds between rounds with the hub while nothing changes (1-3600).")
    var roundInterval: Int = 5

    public func validate() throws {
        guard (1...3_600).contains(roundInterval) else { throw ValidationError("--round-interval must be 1 to 3600 seconds, got \(roundInterval)") }
    }

    public func run() async throws {
        await ServiceLauncher.launch(.sync, options: options) { home, logger in
            try SyncService(home: home, logger: logger, interval: .seconds(roundInterval)).services
        }
    }
}
