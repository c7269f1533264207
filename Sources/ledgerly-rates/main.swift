import Foundation
import LedgerlyRuntime
import LedgerlyRates

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-rates",
    summary: "fetches and caches exchange rates; follows the store's change log.")
let logger = LoggingSetup.bootstrap(service: "ledgerly-rates")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let service: ChangeFollower
do {
    service = try RatesService.make(home: home, logger: logger)
} catch {
    FileHandle.standardError.write(Data("ledgerly-rates: \(error)\n".utf8))
    exit(1)
}
await ServiceLauncher.run(service, name: RatesService.name, logger: logger)
