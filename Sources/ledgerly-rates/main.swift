import Foundation
import LedgerlyRuntime
import LedgerlyRates

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-rates",
    summary: "fetches and caches exchange rates on a schedule and from the drop folder; follows the store's change log.",
    extraOptions: [ServiceClock.option])
let logger = LoggingSetup.bootstrap(service: "ledgerly-rates")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let rates: RatesService
do {
    rates = try RatesService(home: home, clock: ServiceClock.from(commandLine, service: "ledgerly-rates"), logger: logger)
} catch {
    ServiceLauncher.fail(.rates, "\(error)")
}
await ServiceLauncher.run(rates.services, as: .rates, logger: logger)
