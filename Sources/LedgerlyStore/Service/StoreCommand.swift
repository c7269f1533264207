import ArgumentParser
import Foundation
import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// `ledgerly-store`: parse, build the service, run (or put a backup back and exit).
/// Its executable's `main.swift` and the multi-call `ledgerly-services` both run it (D504).
public struct StoreCommand: AsyncParsableCommand {
    public static let configuration = ServiceOptions.configuration(for: .store, abstract: "owns the Ledgerly database and answers requests over ZeroMQ.")

    public init() {}

    @OptionGroup var options: ServiceOptions

    @Option(help: ArgumentHelp("full (default: fsync every commit) or normal (survives kill -9, not power loss)", valueName: "mode"),
            transform: StoreCommand.durability)
    var durability: Durability = .full

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("put this backup back in place of the database (the store must be stopped), then exit", valueName: "file"))
    var restore: String?

    public func run() async throws {
        let logger = LoggingSetup.bootstrap(service: LedgerlyService.store.name)
        if !MallocArenaSettings.apply() { logger.warning("glibc refused to limit its malloc arenas to \(MallocArenaSettings.arenas); it keeps its default") }
        if !SQLiteProcessSettings.apply() { logger.warning("SQLite had started before its settings were made; it keeps its defaults") }
        let home = options.preparedHome(for: .store, logger: logger)
        if let restore { Self.restore(restore, home: home) }
        await ServiceLauncher.run([.init(service: StoreService(home: home, durability: durability, clock: options.clock, logger: logger))], as: .store, logger: logger)
    }

    private static func durability(_ text: String) throws -> Durability {
        guard let durability = Durability(rawValue: text) else { throw ValidationError("--durability must be full or normal") }
        return durability
    }

    private static func restore(_ file: String, home: LedgerlyHome) -> Never {
        do {
            let outcome = try StoreRestore.run(from: URL(fileURLWithPath: file), home: home)
            print("Restored \(file): \(outcome.transactions) transactions, change log up to seq \(outcome.lastSeq), new epoch \(outcome.epoch).")
            if let copy = outcome.replacedCopy { print("The database it replaced is kept at \(copy.path).") }
            Foundation.exit(0)
        } catch {
            ServiceLauncher.fail(.store, "restore failed: \(error)")
        }
    }
}
