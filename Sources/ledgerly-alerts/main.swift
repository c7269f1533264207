import LedgerlyRuntime
import LedgerlyAlerts

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-alerts",
    summary: "watches budgets, goals and rates and raises alerts; follows the store's change log.")
let logger = LoggingSetup.bootstrap(service: "ledgerly-alerts")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
await ServiceLauncher.run(AlertsService.make(home: home, logger: logger), name: AlertsService.name, logger: logger)
