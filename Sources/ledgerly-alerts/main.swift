import Foundation
import LedgerlyRuntime
import LedgerlyAlerts

let commandLine = ServiceCommandLine.parse(
    Array(CommandLine.arguments.dropFirst()), service: "ledgerly-alerts",
    summary: "watches budgets, goals, recurring transactions and rates, raises alerts once and delivers them; follows the store's change log.",
    extraOptions: [ServiceClock.option])
let logger = LoggingSetup.bootstrap(service: "ledgerly-alerts")
let home = LedgerlyHome.resolve(explicit: commandLine.home)
let alerts: AlertsService
do {
    alerts = try AlertsService(home: home, clock: ServiceClock.from(commandLine, service: "ledgerly-alerts"), logger: logger)
} catch {
    ServiceLauncher.fail(.alerts, "\(error)")
}
await ServiceLauncher.run(alerts.services, as: .alerts, logger: logger)
