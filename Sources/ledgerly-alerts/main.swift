import LedgerlyRuntime
import LedgerlyAlerts

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-alerts",
    summary: "watches budgets, goals and rates and raises alerts; follows the store's change log.")
let logger = LoggingSetup.bootstrap(service: "ledgerly-alerts")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let follower = ChangeFollower(service: "ledgerly-alerts", home: home, consumer: AlertsChangeConsumer(logger: logger), logger: logger)
await ServiceLauncher.run(follower, name: "ledgerly-alerts", logger: logger)
