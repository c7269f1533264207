import Foundation
import LedgerlyRuntime
import LedgerlyRates

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-rates",
    summary: "fetches and caches exchange rates on a schedule and from the drop folder; follows the store's change log.",
    extraOptions: [ServiceClock.option])
let logger = LoggingSetup.bootstrap(service: "ledgerly-rates")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let service: RatesService
do {
    service = try RatesService(home: home, clock: ServiceClock.from(commandLine, service: "ledgerly-rates"), logger: logger)
} catch {
    FileHandle.standardError.write(Data("ledgerly-rates: \(error)\n".utf8))
    exit(1)
}
await ServiceLauncher.run(service, name: RatesService.name, logger: logger)
