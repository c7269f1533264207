import ArgumentParser
import LedgerlyAlerts
import LedgerlyRuntime

/// `ledgerly-alerts`: parse, build the services, run.
@main
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = ServiceOptions.configuration(
        for: .alerts,
        abstract: "watches budgets, goals, recurring transactions and rates, raises alerts once and delivers them; follows the store's change log.")

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        let logger = LoggingSetup.bootstrap(service: LedgerlyService.alerts.name)
        let alerts: AlertsService
        do {
            alerts = try AlertsService(home: options.ledgerlyHome, clock: options.clock, logger: logger)
        } catch {
            ServiceLauncher.fail(.alerts, "\(error)")
        }
        await ServiceLauncher.run(alerts.services, as: .alerts, logger: logger)
    }
}
