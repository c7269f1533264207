import ArgumentParser
import Foundation
import LedgerlyRuntime

/// `ledgerly-rates`: parse, build the services, run.
/// Its executable's `main.swift` and the multi-call `ledgerly-services` both run it (D504).
public struct RatesCommand: AsyncParsableCommand {
    public static let configuration = ServiceOptions.configuration(
        for: .rates, abstract: "fetches and caches exchange rates on a schedule and from the drop folder; follows the store's change log.")

    public init() {}

    @OptionGroup var options: ServiceOptions

    @Flag(name: .customLong("check-config"), help: "Check rates.json (JSON5) and exit: 0 when it is good or absent, 1 with the problem otherwise.")
    var checkConfig = false

    public func run() async throws {
        if checkConfig {
            ConfigurationCheck.run(.rates, name: "rates.json", home: options.ledgerlyHome, file: RatesConfiguration.url(in:), problem: Self.problem(in:))
        }
        await ServiceLauncher.launch(.rates, options: options, reloadCheck: Self.problem(in:)) { home, logger in
            try RatesService(home: home, clock: options.clock, logger: logger).services
        }
    }

    /// What is wrong with the home's rates.json, nil when it is good or absent.
    @Sendable static func problem(in home: LedgerlyHome) -> String? {
        ConfigurationCheck.problem { _ = try RatesConfiguration.load(from: home) }
    }
}
