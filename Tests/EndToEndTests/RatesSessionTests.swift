import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Manual rates, conversion and kept rate snapshots through the CLI, as a person would use
    /// them. Figures are the ECB's reference rates of 2026-10-30 (1 EUR = 1.1172 USD = 175.68 JPY).
    @Suite struct RatesSessionTests {
        @Test func convertingAndSpendingInAnotherCurrencyKeepsTheRateUsed() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            for step in [
                ["rates", "set", "EUR", "USD", "1.1172", "--profile", "official", "--at", "2026-10-30T15:00:00Z"],
                ["rates", "set", "EUR", "JPY", "175.68", "--profile", "official", "--at", "2026-10-30T15:00:00Z"],
                ["wallet", "add", "Card", "--currency", "EUR", "--starting-balance", "100"],
            ] {
                let result = try harness.cli(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }

            // The same figures as converting through EUR by hand.
            let convert = try harness.cli("convert", "100", "USD", "--to", "JPY", "--json")
            let conversion = try JSONDecoder().decode(ConversionRecord.self, from: Data(convert.stdout.utf8))
            #expect(conversion.result == "15725")  // 100 / 1.1172 × 175.68 = 15725.03…
            let human = try harness.cli("convert", "100", "USD")
            #expect(human.stdout.hasPrefix("100.00 USD = 89.51 EUR\n"))
            #expect(human.stderr.contains("warning: rate "))  // typed for 2026-10-30: weeks old
            let missing = try harness.cli("convert", "100", "CHF")
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no rate from CHF to EUR"))
            #expect(missing.stderr.contains("ledgerly rates set CHF EUR"))

            // A EUR-base user spending 5,000 JPY from a EUR card.
            let spent = try harness.cli("tx", "add", "--wallet", "Card", "--amount", "5000", "--currency", "JPY", "--json")
            #expect(spent.status == 0, "\(spent.stderr)")
            let ramen = try JSONDecoder().decode(TransactionRecord.self, from: Data(spent.stdout.utf8))
            #expect(ramen.walletAmount == "28.46")
            #expect(ramen.conversion?.rate == "0.00569216757741347905")
            let shown = try harness.cli("tx", "show", String(ramen.id))
            #expect(shown.stdout.contains("28.46 EUR"))
            #expect(shown.stdout.contains("0.00569216757741347905 EUR per JPY"))

            // Changing the rate later changes neither the transaction nor the balance.
            #expect(try harness.cli("rates", "set", "EUR", "JPY", "150", "--profile", "official").status == 0)
            let again = try JSONDecoder().decode(TransactionRecord.self, from: Data(try harness.cli("tx", "show", String(ramen.id), "--json").stdout.utf8))
            #expect(again.walletAmount == "28.46")
            let wallets = try JSONDecoder().decode(WalletListReply.self, from: Data(try harness.cli("wallet", "list", "--json").stdout.utf8))
            #expect(wallets.wallets.map(\.balance) == ["71.54"])

            let list = try harness.cli("rates", "list")
            #expect(list.stdout.contains("EUR/JPY"))
            #expect(list.stdout.contains("stale"))  // EUR/USD is weeks old
            let history = try harness.cli("convert", "--history", "--json")
            #expect(try JSONDecoder().decode(ConversionHistoryReply.self, from: Data(history.stdout.utf8)).conversions.count == 2)
        }

        /// A negative rate on the command line is read as a rate and refused as one (not taken
        /// for an unknown option "-1"), and nothing reaches the store.
        @Test func aNegativeRateIsRefusedAsNotPositive() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let negative = try harness.cli("rates", "set", "EUR", "XAU", "-1")
            #expect(negative.status != 0)
            #expect(negative.stderr.contains("a rate must be greater than zero, got -1"))
            #expect(!negative.stderr.contains("Missing expected argument"))
            let outOfRange = try harness.cli("rates", "set", "EUR", "XAU", "1000000000001", "--profile", "manual")
            #expect(outOfRange.status != 0)
            #expect(outOfRange.stderr.contains("0.000000000001 to 1000000000000"))
            let oneOff = try harness.cli("tx", "add", "--wallet", "1", "--amount", "5", "--currency", "USD", "--rate", "-0.9")
            #expect(oneOff.status != 0)
            #expect(oneOff.stderr.contains("a rate must be greater than zero, got -0.9"))
            // Options after the rate still work, and a good rate is stored.
            let good = try harness.cli("rates", "set", "EUR", "XAU", "0.00041", "--profile", "manual", "--json")
            #expect(good.status == 0)
            let list = try harness.cli("rates", "list", "--profile", "manual", "--json")
            #expect(try JSONDecoder().decode(RateListReply.self, from: Data(list.stdout.utf8)).rates.map(\.rate) == ["0.00041"])
        }
    }
}
