import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45 item 5: `report balance` named its total "Net worth" though it counts wallets and
    /// investments only, while `ledgerly networth` adds manual assets and liabilities. One
    /// definition: net worth is `networth`'s; `report balance` names its total for what it is
    /// (D411). And an investment account without a price is "not valued" there too (D410).
    @Suite struct NetWorthReportBalanceTests {
        @Test func reportBalanceNamesItsTotalAndOnlyNetworthSaysNetWorth() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            _ = try client.call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "1000"))
            _ = try client.call(ManualAssetCreateRequest(name: "Car", value: "5000", currency: "EUR"))
            _ = try client.call(LiabilityCreateRequest(name: "Loan", balance: "2000", currency: "EUR"))
            let broker = try client.call(InvestAccountCreateRequest(name: "Broker"))
            let acme = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "EUR"))
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: acme.id, quantity: "3", price: "100", date: "2026-11-02"))

            let balance = try harness.cli("report", "balance")
            #expect(balance.status == 0, "\(balance.stderr)")
            let lines = balance.stdout.split(separator: "\n").map(String.init)
            #expect(!balance.stdout.contains("Net worth "), "\(balance.stdout)")
            #expect(lines.contains { $0.hasPrefix("Wallets and investments") && $0.hasSuffix("1000.00") }, "\(balance.stdout)")
            #expect(balance.stdout.contains("Net worth, with manual assets and liabilities: `ledgerly networth`."), "\(balance.stdout)")
            // ACME has no price: the account is not valued, never 0.00.
            let account = try #require(lines.first { $0.hasPrefix("Investments: Broker") }, "\(balance.stdout)")
            #expect(account.contains("not valued") && !account.contains("0.00"), "\(balance.stdout)")
            let report = try JSONDecoder().decode(BalanceReport.self, from: Data(try harness.cli("report", "balance", "--json").stdout.utf8))
            #expect(report.total == "1000.00")
            #expect(report.investments.map(\.value) == [nil] && report.investments.map(\.baseValue) == [nil])
            #expect(report.unvaluedInvestments == [broker.id])

            // Net worth is one figure, networth's: 1000 + 5000 − 2000, the account not valued.
            let networth = try harness.cli("networth", "--json")
            let worth = try JSONDecoder().decode(NetWorthReport.self, from: Data(networth.stdout.utf8))
            #expect(worth.figures.netWorth == "4000.00" && worth.notValued == ["Broker"], "\(networth.stdout)")

            // Priced, both count the account the same way.
            _ = try client.call(PriceSetRequest(assetId: acme.id, price: "110"))
            let priced = try JSONDecoder().decode(BalanceReport.self, from: Data(try harness.cli("report", "balance", "--json").stdout.utf8))
            #expect(priced.total == "1330.00" && priced.investments.map(\.value) == ["330.00"] && priced.unvaluedInvestments.isEmpty)
            let pricedWorth = try JSONDecoder().decode(NetWorthReport.self, from: Data(try harness.cli("networth", "--json").stdout.utf8))
            #expect(pricedWorth.figures.netWorth == "4330.00" && pricedWorth.complete)
        }

        /// Issue 45 item 4 in `report balance`: the "Not complete" line names every wallet and
        /// investment account the total leaves out, wholly or in part, not only the wallets (D475).
        @Test func reportBalanceNamesAnAccountNotValuedUnderNotComplete() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            _ = try client.call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "1000"))
            let broker = try client.call(InvestAccountCreateRequest(name: "Broker"))
            let acme = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "EUR"))
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: acme.id, quantity: "3", price: "100", date: "2026-11-02"))

            let unpriced = try harness.cli("report", "balance")
            #expect(unpriced.status == 0, "\(unpriced.stderr)")
            #expect(unpriced.stdout.contains("Not complete: not valued in EUR, so left out of the total: Investments: Broker ("), "\(unpriced.stdout)")

            // A wallet without a rate and an account valued in part are named together.
            _ = try client.call(WalletCreateRequest(name: "Dollars", currency: "USD", startingBalance: "50"))
            let beta = try client.call(AssetCreateRequest(symbol: "BETA", assetType: .stock, quoteCurrency: "EUR"))
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: beta.id, quantity: "1", price: "20", date: "2026-11-02"))
            _ = try client.call(PriceSetRequest(assetId: beta.id, price: "25"))
            let partly = try harness.cli("report", "balance")
            #expect(partly.stdout.contains("so left out of the total: Dollars, Investments: Broker (partly valued) ("), "\(partly.stdout)")

            _ = try client.call(PriceSetRequest(assetId: acme.id, price: "110"))
            _ = try client.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.25"))
            #expect(!(try harness.cli("report", "balance")).stdout.contains("Not complete"))
        }
    }
}
