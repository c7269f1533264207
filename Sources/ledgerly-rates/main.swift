import LedgerlyRuntime
import LedgerlyRates

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-rates",
    summary: "fetches and caches exchange rates; follows the store's change log.")
let logger = LoggingSetup.bootstrap(service: "ledgerly-rates")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let follower = ChangeFollower(service: "ledgerly-rates", home: home, consumer: RatesChangeConsumer(logger: logger), logger: logger)
await ServiceLauncher.run(follower, name: "ledgerly-rates", logger: logger)
