import Foundation
import LedgerlyRuntime
import LedgerlyStore

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-store",
    summary: "owns the Ledgerly database and answers requests over ZeroMQ.",
    extraOptions: [("--durability", "full (default: fsync every commit) or normal (survives kill -9, not power loss)"), ServiceClock.option,
                   ("--restore", "FILE: put this backup back in place of the database (the store must be stopped), then exit")])
let logger = LoggingSetup.bootstrap(service: "ledgerly-store")
guard let durability = Durability(rawValue: commandLine.options["--durability"] ?? "full") else {
    FileHandle.standardError.write(Data("ledgerly-store: --durability must be full or normal\n".utf8))
    exit(64)
}
let home = LedgerlyHome.resolve(explicit: commandLine.home)
if let file = commandLine.options["--restore"] {
    do {
        let outcome = try StoreRestore.run(from: URL(fileURLWithPath: file), home: home)
        print("Restored \(file): \(outcome.transactions) transactions, change log up to seq \(outcome.lastSeq), new epoch \(outcome.epoch).")
        if let copy = outcome.replacedCopy { print("The database it replaced is kept at \(copy.path).") }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("ledgerly-store: restore failed: \(error)\n".utf8))
        exit(1)
    }
}
let clock = ServiceClock.from(commandLine, service: "ledgerly-store")
await ServiceLauncher.run([.init(service: StoreService(home: home, durability: durability, clock: clock, logger: logger))], as: .store, logger: logger)
