import ArgumentParser
import LedgerlyRates
import LedgerlyRuntime

/// `ledgerly-rates`: parse, build the services, run.
@main
struct RatesCommand: AsyncParsableCommand {
    static let configuration = ServiceOptions.configuration(
        for: .rates, abstract: "fetches and caches exchange rates on a schedule and from the drop folder; follows the store's change log.")

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        let logger = LoggingSetup.bootstrap(service: LedgerlyService.rates.name)
        let rates: RatesService
        do {
            rates = try RatesService(home: options.ledgerlyHome, clock: options.clock, logger: logger)
        } catch {
            ServiceLauncher.fail(.rates, "\(error)")
        }
        await ServiceLauncher.run(rates.services, as: .rates, logger: logger)
    }
}
