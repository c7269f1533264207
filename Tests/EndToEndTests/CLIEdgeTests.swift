import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The CLI's edges an outside review found (issue 12, "The CLI's edges").
    @Suite struct CLIEdgeTests {
        @Test func standardInputAndOutputAreNamedDash() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR").status == 0)
            let imported = try harness.cli(["import", "csv", "-", "--wallet", "Checking"], stdin: "date,description,amount\n2026-11-02,Bakery,-3.20\n2026-11-03,Salary,1500.00\n")
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("Imported 2 of 2 rows"))
            let exported = try harness.cli("export", "csv", "-o", "-")
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("Bakery"))
            #expect(!FileManager.default.fileExists(atPath: harness.home.root.appendingPathComponent("-").path), "no file named -")
        }

        /// Issue 12: every `from` was called "the currency" and positional arguments `--id`/`--amount`.
        @Test func errorsNameTheArgumentThePersonTyped() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let month = try harness.cli("report", "categories", "--from", "2026-13")
            #expect(month.status == 1)
            #expect(month.stderr.contains("--from"), "\(month.stderr)")
            #expect(!month.stderr.contains("the currency"))
            let convert = try harness.cli("convert", "100", "EURO1")
            #expect(convert.status == 1)
            #expect(convert.stderr.contains("<currency>"), "\(convert.stderr)")
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR").status == 0)
            #expect(try harness.cli("goal", "add", "Trip", "--target", "100").status == 0)
            let fund = try harness.cli("goal", "fund", "Trip", "0")
            #expect(fund.status == 1)
            #expect(fund.stderr.contains("<amount>"), "\(fund.stderr)")
            #expect(!fund.stderr.contains("--amount"))
            let delete = try harness.cli("tx", "delete", "4242")
            #expect(delete.status == 1)
            #expect(!delete.stderr.contains("--id"), "\(delete.stderr)")
        }

        @Test func aProviderTakenOutOfTheConfigurationIsForgotten() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let client = harness.client()
            _ = try client.call(RateProviderReportRequest(name: "oldfeed", profile: "official", attemptedAt: Timestamp.now(), error: "HTTP 500",
                                                          consecutiveFailures: 4, nextAttemptAt: nil, stored: 0, confirmed: 0))
            #expect(try harness.cli("status").stdout.contains("oldfeed"))
            // The harness's rates.json has no providers: on start the rates service forgets it.
            try harness.start(.rates)
            try harness.waitFor("the rates service to forget oldfeed") {
                try client.call(RateProviderListRequest()).providers.allSatisfy { $0.name != "oldfeed" }
            }
            #expect(!(try harness.cli("status").stdout.contains("oldfeed")))
            #expect(harness.log(.rates).contains("no longer configured"))
            #expect(harness.status(.rates) != nil, "the rates service keeps running once that is done")
        }

        @Test func theWaitingHintNamesThePairAndTheDay() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Dollars", "--currency", "USD").status == 0)
            #expect(try harness.cli("category", "add", "Food", "--kind", "expense").status == 0)
            #expect(try harness.cli("tx", "add", "--wallet", "Dollars", "--amount", "12.00", "--category", "Food", "--date", "2024-01-05").status == 0)
            let report = try harness.cli("report", "categories", "--from", "2024-01", "--to", "2024-01")
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.stdout.contains("1 in USD dated 2024-01-05 need a USD→EUR rate in force on 2024-01-05"))
            #expect(report.stdout.contains("ledgerly rates set USD EUR RATE --at 2024-01-05"))
            // In manual mode a refresh helps nobody, so it is not suggested.
            #expect(try harness.cli("settings", "set", "--exchange-mode", "manual").status == 0)
            #expect(!(try harness.cli("report", "categories", "--from", "2024-01", "--to", "2024-01").stdout.contains("rates refresh")))
            #expect(try harness.cli("rates", "set", "USD", "EUR", "0.9", "--at", "2024-01-01").status == 0)
            #expect(!(try harness.cli("report", "categories", "--from", "2024-01", "--to", "2024-01").stdout.contains("wait for an exchange rate")))
        }
    }
}
