import ArgumentParser
import Foundation
import LedgerlyRates
import LedgerlyRuntime

/// `ledgerly-rates`: parse, build the services, run.
@main
struct RatesCommand: AsyncParsableCommand {
    static let configuration = ServiceOptions.configuration(
        for: .rates, abstract: "fetches and caches exchange rates on a schedule and from the drop folder; follows the store's change log.")

    @OptionGroup var options: ServiceOptions

    @Flag(name: .customLong("check-config"), help: "Check rates.json (JSON5) and exit: 0 when it is good or absent, 1 with the problem otherwise.")
    var checkConfig = false

    func run() async throws {
        if checkConfig {
            let home = options.ledgerlyHome
            if let unmoved = home.unmovedConfiguration("rates.json") {
                // Not moved yet: check it where it is, as the next start will move and read it.
                ConfigurationCheck.report(.rates, file: unmoved, problem: Self.problem(in: LedgerlyHome(root: home.root)), note: "moved to \(home.configDirectory.path) at the next start")
            }
            ConfigurationCheck.report(.rates, file: RatesConfiguration.url(in: home), problem: Self.problem(in: home))
        }
        let logger = LoggingSetup.bootstrap(service: LedgerlyService.rates.name)
        let home = options.preparedHome(for: .rates, logger: logger)
        let rates: RatesService
        do {
            rates = try RatesService(home: home, clock: options.clock, logger: logger)
        } catch {
            ServiceLauncher.fail(.rates, "\(error)")
        }
        await ServiceLauncher.run(rates.services, as: .rates, logger: logger, reloadCheck: { Self.problem(in: home) })
    }

    /// What is wrong with the home's rates.json, nil when it is good or absent.
    static func problem(in home: LedgerlyHome) -> String? {
        do {
            _ = try RatesConfiguration.load(from: home)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
