import ArgumentParser
import Foundation
import LedgerlyAlerts
import LedgerlyRuntime

/// `ledgerly-alerts`: parse, build the services, run.
@main
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = ServiceOptions.configuration(
        for: .alerts,
        abstract: "watches budgets, goals, recurring transactions and rates, raises alerts once and delivers them; follows the store's change log.")

    @OptionGroup var options: ServiceOptions

    @Flag(name: .customLong("check-config"), help: "Check alerts.json (JSON5) and exit: 0 when it is good or absent, 1 with every problem otherwise.")
    var checkConfig = false

    func run() async throws {
        if checkConfig {
            let home = options.ledgerlyHome
            if let unmoved = home.unmovedConfiguration("alerts.json") {
                // Not moved yet: check it where it is, as the next start will move and read it.
                ConfigurationCheck.report(.alerts, file: unmoved, problem: Self.problem(in: LedgerlyHome(root: home.root)), note: "moved to \(home.configDirectory.path) at the next start")
            }
            ConfigurationCheck.report(.alerts, file: AlertSinksConfiguration.url(home: home), problem: Self.problem(in: home))
        }
        let logger = LoggingSetup.bootstrap(service: LedgerlyService.alerts.name)
        let home = options.preparedHome(for: .alerts, logger: logger)
        let alerts: AlertsService
        do {
            alerts = try AlertsService(home: home, clock: options.clock, logger: logger)
        } catch {
            ServiceLauncher.fail(.alerts, "\(error)")
        }
        await ServiceLauncher.run(alerts.services, as: .alerts, logger: logger, reloadCheck: { Self.problem(in: home) })
    }

    /// What is wrong with the home's alerts.json, nil when it is good or absent.
    static func problem(in home: LedgerlyHome) -> String? {
        do {
            _ = try AlertSinksConfiguration.load(home: home)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
