import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The rates service fetching from providers, each played by a local HTTP server serving the
    /// providers' real formats (the ECB's daily XML of 2026-10-30: 1 EUR = 1.1172 USD = 175.68 JPY).
    @Suite struct RatesRefreshTests {
        @Test func refreshingFromTheECBGivesTheSameFiguresAsConvertingByHand() throws {
            let server = try ProviderServer()
            let harness = try ServiceHarness()
            try harness.configureProviders([["name": "ecb", "format": "ecb-daily-xml", "url": server.url("eurofxref-daily.xml"), "profile": "official"]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)

            // The service refreshes on its own once it is up: EUR→USD and EUR→JPY, the currencies in use.
            try harness.waitFor("the scheduled refresh") { try harness.rates().count == 2 }
            #expect(Set(try harness.rates().map { "\($0.base)/\($0.quote)" }) == ["EUR/USD", "EUR/JPY"])
            // On demand, again: nothing new, the same two confirmed as current.
            let refresh = try harness.cli("rates", "refresh", "--json")
            #expect(refresh.status == 0, "\(refresh.stderr)")
            let reply = try JSONDecoder().decode(RatesRefreshReply.self, from: Data(refresh.stdout.utf8))
            #expect(reply.providers.map(\.name) == ["ecb"])
            #expect(reply.providers[0].stored == 0)
            #expect(reply.providers[0].confirmed == 2)
            #expect(reply.providers[0].error == nil)

            let converted = try JSONDecoder().decode(ConversionRecord.self, from: Data(try harness.cli("convert", "100", "USD", "--to", "JPY", "--json").stdout.utf8))
            #expect(converted.result == "15725")  // 100 ÷ 1.1172 × 175.68 = 15725.03…
            #expect(converted.snapshot.source == "ecb+ecb")

            // A EUR-base user spends 5,000 JPY from the JPY wallet: the base amount and the rate kept.
            let spent = try harness.cli("tx", "add", "--wallet", "JPY", "--amount", "5000", "--json")
            #expect(spent.status == 0, "\(spent.stderr)")
            let ramen = try JSONDecoder().decode(TransactionRecord.self, from: Data(spent.stdout.utf8))
            #expect(ramen.baseAmount == "28.46")  // 5000 ÷ 175.68 = 28.4608…
            #expect(ramen.baseConversion?.source == "ecb")
            #expect(ramen.baseConversion?.legs?.first?.rate == "175.68")
            let shown = try harness.cli("tx", "show", String(ramen.id))
            #expect(shown.stdout.contains("28.46 EUR"), "\(shown.stdout)")
            // A later rate changes neither the transaction nor the wallet's base figures.
            #expect(try harness.cli("rates", "set", "EUR", "JPY", "150", "--profile", "official").status == 0)
            let again = try JSONDecoder().decode(TransactionRecord.self, from: Data(try harness.cli("tx", "show", String(ramen.id), "--json").stdout.utf8))
            #expect(again.baseAmount == "28.46")
            #expect(again.baseConversion == ramen.baseConversion)

            // With the rates service gone, conversions still answer from the store's rates.
            harness.stop(.rates, signal: SIGKILL)
            let offline = try harness.cli("convert", "100", "USD", "--to", "JPY", "--json")
            #expect(offline.status == 0)
            #expect(try JSONDecoder().decode(ConversionRecord.self, from: Data(offline.stdout.utf8)).result == "13426")  // 100 ÷ 1.1172 × 150, the newest rates
            #expect(try harness.cli("rates", "refresh").status == 3)
            try harness.start(.rates)
            #expect(try harness.cli("rates", "refresh").status == 0)
        }

        @Test func badProviderDataStoresNothingAndTheServiceKeepsServing() throws {
            let server = try ProviderServer()
            let harness = try ServiceHarness()
            let broken: [(String, String)] = [
                ("html", "html-error-page.html"), ("limited", "status/429"), ("failing", "status/500"), ("garbage", "garbage.bin"),
                ("negative", "ecb-negative-rate.xml"), ("zero", "ecb-zero-rate.xml"), ("truncated", "ecb-truncated.xml"), ("missing", "nowhere.xml"),
            ]
            var providers: [[String: Any]] = broken.map { ["name": $0.0, "format": "ecb-daily-xml", "url": server.url($0.1), "profile": "official"] }
            providers.append(["name": "slow", "format": "ecb-daily-xml", "url": server.url("slow/3"), "profile": "official", "timeoutSeconds": 1])
            try harness.configureProviders(providers)
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)

            let refresh = try harness.cli("rates", "refresh", "--json")
            #expect(refresh.status == 0)  // --json reports each provider's result; the table form exits 1
            let results = try JSONDecoder().decode(RatesRefreshReply.self, from: Data(refresh.stdout.utf8)).providers
            #expect(results.count == broken.count + 1)
            for result in results {
                #expect(result.stored == 0, "\(result.name)")
                #expect(result.error != nil, "\(result.name) should have failed")
            }
            let errors = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0.error ?? "") })
            #expect(errors["limited"]?.contains("429") == true)
            #expect(errors["failing"]?.contains("500") == true)
            #expect(errors["slow"]?.contains("no answer within 1 s") == true)
            #expect(errors["html"]?.lowercased().contains("html") == true)
            #expect(try JSONDecoder().decode(RateListReply.self, from: Data(try harness.cli("rates", "list", "--json").stdout.utf8)).rates.isEmpty)
            #expect(try harness.cli("rates", "refresh").status == 1)
            #expect(harness.status(.rates) != nil)
            #expect(harness.log(.rates).contains("provider failed"))
        }
    }
}
