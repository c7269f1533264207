import LedgerlyRuntime
import LedgerlyRates

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-rates",
    summary: "fetches and caches exchange rates; follows the store's change log.")
let logger = LoggingSetup.bootstrap(service: "ledgerly-rates")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
await ServiceLauncher.run(RatesService.make(home: home, logger: logger), name: RatesService.name, logger: logger)
