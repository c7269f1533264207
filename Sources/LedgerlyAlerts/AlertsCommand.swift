import ArgumentParser
import Foundation
import LedgerlyRuntime

/// `ledgerly-alerts`: parse, build the services, run.
/// Its executable's `main.swift` and the multi-call `ledgerly-services` both run it (D504).
public struct AlertsCommand: AsyncParsableCommand {
    public static let configuration = ServiceOptions.configuration(
        for: .alerts,
        abstract: "watches budgets, goals, recurring transactions and rates, raises alerts once and delivers them; follows the store's change log.")

    public init() {}

    @OptionGroup var options: ServiceOptions

    @Flag(name: .customLong("check-config"), help: "Check alerts.json (JSON5) and exit: 0 when it is good or absent, 1 with every problem otherwise.")
    var checkConfig = false

    public func run() async throws {
        if checkConfig {
            ConfigurationCheck.run(.alerts, name: "alerts.json", home: options.ledgerlyHome, file: AlertSinksConfiguration.url(home:), problem: Self.problem(in:))
        }
        await ServiceLauncher.launch(.alerts, options: options, reloadCheck: Self.problem(in:)) { home, logger in
            try AlertsService(home: home, clock: options.clock, logger: logger).services
        }
    }

    /// What is wrong with the home's alerts.json, nil when it is good or absent.
    @Sendable static func problem(in home: LedgerlyHome) -> String? {
        ConfigurationCheck.problem { _ = try AlertSinksConfiguration.load(home: home) }
    }
}
