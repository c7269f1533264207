import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

/// What the rates suites do to a harness: configure the providers, set up a ledger whose wallets
/// put USD and JPY in use, and read the stored rates back through the CLI.
extension ServiceHarness {
    /// Writes `<home>/rates.json` (providers, schedule, drop folder) before the rates service starts.
    func configureRates(_ configuration: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: configuration).write(to: home.root.appendingPathComponent("rates.json"))
    }

    func configureProviders(_ providers: [[String: Any]]) throws {
        try configureRates(["providers": providers])
    }

    /// The newest rate of each pair, as `ledgerly rates list --json` gives them.
    func rates(profile: String? = nil) throws -> [RateRecord] {
        let arguments = ["rates", "list", "--json"] + (profile.map { ["--profile", $0] } ?? [])
        return try JSONDecoder().decode(RateListReply.self, from: Data(try cli(arguments).stdout.utf8)).rates
    }

    /// Starts the store, completes setup (EUR) and adds a USD and a JPY wallet.
    func setUpLedgerInUSDAndJPY() throws {
        try start(.store)
        try setUp()
        for currency in ["USD", "JPY"] {
            #expect(try cli("wallet", "add", currency, "--currency", currency).status == 0)
        }
    }
}
