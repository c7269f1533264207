import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Asset prices end to end: the real store and rates service on a temporary home, each price
    /// provider played by the local provider server replaying the recorded-shape fixtures
    /// (`Tests/LedgerlyRatesTests/Fixtures`, README). Everything is checked through the store's
    /// own replies (`invest.price.list`, `invest.price.history`, `rates.provider.list`).
    @Suite struct PriceRefreshTests {
        static let avKey = "TESTKEY-av-7f3a9c"
        static let finnhubKey = "TESTKEY-fh-51d0e2"

        /// A EUR ledger with one brokerage account, the given assets (each bought once unless it
        /// is only watched) and the rates service configured with `prices`.
        struct PricedLedger {
            let harness: ServiceHarness
            let client: RequestClient
            var assets: [String: AssetRecord] = [:]

            init(prices: [String: Any], assets specs: [(symbol: String, type: AssetType, provider: PriceProvider, currency: String, providerId: String?, watchOnly: Bool)],
                 startRates: Bool = true) throws {
                harness = try ServiceHarness()
                try harness.configureRates([
                    "providers": [] as [Any], "schedule": ["retryInitialSeconds": 1, "retryMaximumSeconds": 2],
                    "dropFolder": ["scanSeconds": 0.2], "prices": prices,
                ])
                try harness.start(.store)
                try harness.setUp()
                client = harness.client()
                let account = try client.call(InvestAccountCreateRequest(name: "Broker"))
                for spec in specs {
                    let asset = try client.call(AssetCreateRequest(symbol: spec.symbol, assetType: spec.type, quoteCurrency: spec.currency, provider: spec.provider,
                                                                   providerId: spec.providerId, watched: spec.watchOnly ? true : nil))
                    assets[spec.symbol] = asset
                    if !spec.watchOnly {
                        _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "2", price: "100", date: "2026-11-02", rate: spec.currency == "EUR" ? nil : "0.9"))
                    }
                }
                if startRates { try harness.start(.rates) }
            }

            func prices() throws -> [String: PriceSnapshotRecord] {
                Dictionary(uniqueKeysWithValues: try client.call(PriceListRequest()).prices.map { ($0.symbol, $0) })
            }

            func history(_ symbol: String) throws -> [PriceSnapshotRecord] {
                try client.call(PriceHistoryRequest(assetId: assets[symbol]!.id, since: "2026-11-01")).prices
            }

            func statuses() throws -> [String: RateProviderStatus] {
                Dictionary(uniqueKeysWithValues: try client.call(RateProviderListRequest()).providers.map { ($0.name, $0) })
            }

            /// `rates.refresh` on the rates service, as `ledgerly rates refresh` sends it.
            func refresh() throws -> [String: ProviderRefreshResult] {
                let reply = try harness.client(.rates, timeoutMilliseconds: 60_000, attempts: 1).call(RatesRefreshRequest())
                return Dictionary(uniqueKeysWithValues: reply.providers.map { ($0.name, $0) })
            }
        }

        static func allThree(_ server: ProviderServer, coinGecko: String = "coingecko-simple-price-assets.json") -> [String: Any] {
            [
                "alphaVantage": ["apiKey": avKey, "url": server.url("by/symbol/alphavantage-quote")],
                "coinGecko": ["url": server.url(coinGecko), "minimumSecondsBetweenRequests": 0],
                "finnhub": ["enabled": true, "apiKey": finnhubKey, "url": server.url("by/symbol/finnhub-quote"), "minimumSecondsBetweenRequests": 0],
            ]
        }

        @Test func heldAndWatchedAssetsArePricedFromTheThreeProvidersAndNothingElseIsAsked() throws {
            let server = try ProviderServer()
            let ledger = try PricedLedger(prices: Self.allThree(server), assets: [
                ("IBM", .stock, .alphavantage, "USD", nil, false),
                ("VWRL", .etf, .alphavantage, "USD", nil, true),  // watched, not held
                ("BTC", .crypto, .coingecko, "USD", "bitcoin", false),
                ("ETH", .crypto, .coingecko, "EUR", "ethereum", false),
                ("AAPL", .stock, .finnhub, "USD", nil, false),
                ("HOUSE", .other, .manual, "EUR", nil, false),
            ])
            try ledger.harness.waitFor("five prices") { try ledger.prices().count == 5 }
            let prices = try ledger.prices()
            #expect(prices["IBM"].map { "\($0.price) \($0.currency) \($0.source) \($0.asOf) \($0.confidence)" } == "231.45 USD alphavantage 2026-11-20T00:00:00.000Z fetched")
            #expect(prices["VWRL"]?.price == "118.42")
            #expect(prices["BTC"].map { "\($0.price) \($0.currency) \($0.source) \($0.asOf)" } == "97012.45 USD coingecko 2026-11-23T14:05:12.000Z")
            #expect(prices["ETH"].map { "\($0.price) \($0.currency) \($0.asOf)" } == "2939.8 EUR 2026-11-23T14:04:31.000Z")
            #expect(prices["AAPL"].map { "\($0.price) \($0.source) \($0.asOf)" } == "229.87 finnhub 2026-11-20T21:00:00.000Z")
            #expect(prices["HOUSE"] == nil)  // manual: never fetched

            // Each provider was asked only for its own assets.
            let alpha = server.requestPaths(containing: "alphavantage-quote")
            #expect(Set(alpha.compactMap { $0.components(separatedBy: "symbol=").last?.components(separatedBy: "&").first }) == ["IBM", "VWRL"])
            #expect(alpha.allSatisfy { $0.contains("function=GLOBAL_QUOTE") && $0.contains("apikey=\(Self.avKey)") })
            #expect(server.requestPaths(containing: "coingecko").allSatisfy { $0.contains("ids=bitcoin,ethereum&vs_currencies=eur,usd&include_last_updated_at=true") })
            let finnhub = server.requestPaths(containing: "finnhub-quote")
            #expect(finnhub.map { $0.components(separatedBy: "?").last } == ["symbol=AAPL"])  // the key in a header, not the URL

            let statuses = try ledger.statuses()
            for name in ["prices.alphavantage", "prices.coingecko", "prices.finnhub"] {
                #expect(statuses[name]?.lastError == nil, "\(name): \(statuses[name]?.lastError ?? "no status")")
                #expect(statuses[name]?.profile == "prices")
            }
            // On demand: every price again, all duplicates of what the store has; the quota counted.
            let refreshed = try ledger.refresh()
            #expect(refreshed["prices.alphavantage"].map { "\($0.stored) \($0.confirmed) \($0.requestsUsed ?? -1)/\($0.requestQuota ?? -1)" } == "0 2 4/25")
            #expect(refreshed["prices.coingecko"]?.confirmed == 2)
            #expect(try ledger.history("IBM").count == 1)
            #expect(try ledger.history("BTC").count == 1)
            let log = ledger.harness.log(.rates)
            #expect(!log.contains(Self.avKey) && !log.contains(Self.finnhubKey))
            #expect(log.contains("purged price snapshots"))
        }

        @Test func badPricesAndFailingProvidersStoreNothingAndSayWhy() throws {
            let server = try ProviderServer()
            let ledger = try PricedLedger(prices: [
                "alphaVantage": ["apiKey": Self.avKey, "url": server.url("by/symbol/alphavantage-quote")],
                "coinGecko": ["url": server.url("coingecko-simple-price-negative.json"), "minimumSecondsBetweenRequests": 0],
                "finnhub": ["enabled": true, "apiKey": Self.finnhubKey, "url": server.url("status/429")],
            ], assets: [
                ("NEGX", .stock, .alphavantage, "USD", nil, false), ("ZERX", .stock, .alphavantage, "USD", nil, false),
                ("BADX", .stock, .alphavantage, "USD", nil, false), ("NOPE", .stock, .alphavantage, "USD", nil, false),
                ("BTC", .crypto, .coingecko, "USD", "bitcoin", false), ("AAPL", .stock, .finnhub, "USD", nil, false),
            ])
            try ledger.harness.waitFor("three failing statuses") { try ledger.statuses().values.filter { $0.lastError != nil }.count == 3 }
            let statuses = try ledger.statuses()
            let alpha = statuses["prices.alphavantage"]?.lastError ?? ""
            #expect(alpha.contains("NEGX: Alpha Vantage JSON: bad price for NEGX") && alpha.contains("a price must be greater than zero"), "\(alpha)")
            #expect(alpha.contains("bad price for ZERX"), "\(alpha)")
            #expect(alpha.contains("bad price for BADX") && alpha.contains("'N/A'"), "\(alpha)")
            #expect(alpha.contains("no price for 'NOPE'"), "\(alpha)")
            #expect(statuses["prices.coingecko"]?.lastError?.contains("bad price for bitcoin") == true)
            #expect(statuses["prices.finnhub"]?.lastError?.contains("HTTP 429") == true)
            #expect(statuses.values.allSatisfy { $0.consecutiveFailures >= 1 })
            #expect(try ledger.prices().isEmpty)
            let refreshed = try ledger.refresh()
            #expect(refreshed.values.allSatisfy { $0.stored == 0 && $0.error != nil })
            #expect(try ledger.prices().isEmpty)
            #expect(ledger.harness.status(.rates) != nil)  // still serving
        }

        @Test func anErrorDocumentAndAUsedUpDailyQuotaStoreNothingAndStopTheAsking() throws {
            let server = try ProviderServer()
            // Alpha Vantage answers every request with its Error Message document.
            let failing = try PricedLedger(prices: ["alphaVantage": ["apiKey": Self.avKey, "url": server.url("alphavantage-error-message.json")]],
                                           assets: [("IBM", .stock, .alphavantage, "USD", nil, false), ("MSFT", .stock, .alphavantage, "USD", nil, false)])
            try failing.harness.waitFor("the error in status") { try failing.statuses()["prices.alphavantage"]?.lastError != nil }
            let error = try failing.statuses()["prices.alphavantage"]?.lastError ?? ""
            #expect(error.contains("the provider answered with error: Invalid API call."), "\(error)")
            #expect(!error.contains(Self.avKey))
            #expect(server.requestPaths(containing: "alphavantage-error-message").count == 1)  // stopped at the first: MSFT was not asked
            #expect(try failing.prices().isEmpty)

            // A quota of 2 for three assets: two are priced, the third waits, nothing more is asked today.
            let quota = try PricedLedger(prices: ["alphaVantage": ["apiKey": Self.avKey, "url": server.url("by/symbol/alphavantage-quote"), "dailyQuota": 2]],
                                         assets: [("IBM", .stock, .alphavantage, "USD", nil, false), ("MSFT", .stock, .alphavantage, "USD", nil, false),
                                                  ("VWRL", .etf, .alphavantage, "USD", nil, false)])
            try quota.harness.waitFor("two prices") { try quota.prices().count == 2 }
            #expect(Set(try quota.prices().keys) == ["IBM", "MSFT"])
            try quota.harness.waitFor("the quota in status") { try quota.statuses()["prices.alphavantage"]?.lastError != nil }
            let status = try quota.statuses()["prices.alphavantage"]
            #expect(status?.lastError?.contains("the daily quota is used up (2/2 requests on") == true, "\(status?.lastError ?? "")")
            #expect(status?.lastError?.contains("VWRL wait until 00:00 UTC") == true)
            let asked = server.requestPaths(containing: "symbol=").count
            let again = try quota.refresh()["prices.alphavantage"]
            #expect(again?.error?.contains("the daily quota is used up") == true)
            #expect(again.map { "\($0.requestsUsed ?? -1)/\($0.requestQuota ?? -1)" } == "2/2")
            #expect(server.requestPaths(containing: "symbol=").count == asked)  // not asked again
            #expect(try quota.prices().count == 2)

            // The daily-limit document itself counts the day as used up.
            let limited = try PricedLedger(prices: ["alphaVantage": ["apiKey": Self.avKey, "url": server.url("alphavantage-information.json")]],
                                           assets: [("IBM", .stock, .alphavantage, "USD", nil, false)])
            try limited.harness.waitFor("the limit in status") { try limited.statuses()["prices.alphavantage"]?.lastError != nil }
            #expect(try limited.statuses()["prices.alphavantage"]?.lastError?.contains("request limit is reached") == true)
            let afterLimit = try limited.refresh()["prices.alphavantage"]
            #expect(afterLimit?.error?.contains("the daily quota is used up (25/25") == true, "\(afterLimit?.error ?? "")")
            #expect(server.requestPaths(containing: "alphavantage-information").count == 1)
            #expect(try limited.prices().isEmpty)
        }

        /// The day's Alpha Vantage requests are counted across a restart of the rates service: it
        /// reports them with the provider's status, the store keeps them, and it reads them back
        /// when it starts (D153, D159).
        @Test func theDailyQuotaSurvivesARestartOfTheRatesService() throws {
            let server = try ProviderServer()
            let ledger = try PricedLedger(prices: ["alphaVantage": ["apiKey": Self.avKey, "url": server.url("by/symbol/alphavantage-quote"), "dailyQuota": 2]],
                                          assets: [("IBM", .stock, .alphavantage, "USD", nil, false), ("MSFT", .stock, .alphavantage, "USD", nil, false),
                                                   ("VWRL", .etf, .alphavantage, "USD", nil, false)])
            try ledger.harness.waitFor("the quota used up") { try ledger.statuses()["prices.alphavantage"]?.requestsUsed == 2 }
            let asked = server.requestPaths(containing: "symbol=").count
            ledger.harness.stop(.rates, signal: SIGKILL)
            try ledger.harness.start(.rates)
            let again = try ledger.refresh()["prices.alphavantage"]
            #expect(again?.error?.contains("the daily quota is used up (2/2") == true, "\(again?.error ?? "")")
            #expect(server.requestPaths(containing: "symbol=").count == asked)
        }

        @Test func killingTheRatesServiceMidRefreshLosesAndDuplicatesNothing() throws {
            let server = try ProviderServer()
            // CoinGecko answers after 4 s: the rates service is killed while it waits.
            let ledger = try PricedLedger(prices: Self.allThree(server, coinGecko: "delay/4/coingecko-simple-price-assets.json"), assets: [
                ("IBM", .stock, .alphavantage, "USD", nil, false), ("VWRL", .etf, .alphavantage, "USD", nil, false),
                ("BTC", .crypto, .coingecko, "USD", "bitcoin", false), ("ETH", .crypto, .coingecko, "EUR", "ethereum", false),
            ])
            try ledger.harness.waitFor("Alpha Vantage's prices and CoinGecko asked") {
                try ledger.prices().count == 2 && !server.requestPaths(containing: "coingecko").isEmpty
            }
            ledger.harness.stop(.rates, signal: SIGKILL)
            #expect(try ledger.prices()["BTC"] == nil)
            try ledger.harness.start(.rates)
            try ledger.harness.waitFor("every price after the restart") { try ledger.prices().count == 4 }
            _ = try ledger.refresh()
            for symbol in ["IBM", "VWRL", "BTC", "ETH"] {
                let history = try ledger.history(symbol)
                #expect(history.count == 1, "\(symbol): \(history.map(\.asOf))")
            }
            #expect(server.requestPaths(containing: "symbol=IBM").count >= 2)  // asked again after the restart, stored once
        }

        @Test func thePriceDropFolderStoresGoodFilesOnceAndRefusesBadOnesNamingTheLine() throws {
            let ledger = try PricedLedger(prices: ["alphaVantage": ["url": "http://127.0.0.1:9/unused"]], assets: [
                ("IBM", .stock, .manual, "USD", nil, false), ("VWRL", .etf, .manual, "USD", nil, false), ("GOLDFUND", .fund, .manual, "USD", nil, false),
            ])
            let folder = ledger.harness.home.root.appendingPathComponent("dropfolder/prices")
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LedgerlyRatesTests/Fixtures")
            func drop(_ fixture: String, as name: String) throws {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let staging = ledger.harness.home.root.appendingPathComponent(name)
                try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: staging)
                try FileManager.default.moveItem(at: staging, to: folder.appendingPathComponent(name))
            }
            try drop("prices-dropfolder.csv", as: "friday.csv")
            try ledger.harness.waitFor("friday.csv processed") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("processed/friday.csv").path) }
            let prices = try ledger.prices()
            #expect(prices["VWRL"].map { "\($0.price) \($0.source) \($0.confidence) \($0.asOf)" } == "118.42 drop-folder manual 2026-11-20T00:00:00.000Z")
            #expect(prices["IBM"].map { "\($0.price) \($0.asOf)" } == "231.45 2026-11-20T21:00:00.000Z")
            #expect(prices["GOLDFUND"]?.price == "12.5")

            // One file after the other, so the order of the two refusals is known (dropped together,
            // a scan between the two drops would take them in either order). Each file is moved
            // first and its note written next to it: wait for the note.
            try drop("prices-dropfolder-bad-line.csv", as: "negative.csv")
            try ledger.harness.waitFor("negative.csv refused") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("rejected/negative.csv.error.txt").path) }
            try drop("prices-dropfolder-unknown-symbol.csv", as: "unknown.csv")
            try ledger.harness.waitFor("unknown.csv refused") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("rejected/unknown.csv.error.txt").path) }
            let unknown = try String(contentsOf: folder.appendingPathComponent("rejected/unknown.csv.error.txt"), encoding: .utf8)
            #expect(unknown.contains("line 3: 'TSLAX' is not an asset"), "\(unknown)")
            let negative = try String(contentsOf: folder.appendingPathComponent("rejected/negative.csv.error.txt"), encoding: .utf8)
            #expect(negative.contains("bad price for VWRL at line 3"), "\(negative)")
            #expect(try ledger.history("IBM").count == 1)  // the refused file's good line 2 was not stored
            // negative.csv, then unknown.csv: two failures in a row, the last one unknown.csv's.
            try ledger.harness.waitFor("the refusals in status") { try ledger.statuses()["prices.drop-folder"]?.consecutiveFailures == 2 }
            #expect(try ledger.statuses()["prices.drop-folder"]?.lastError?.contains("unknown.csv: the store refused") == false)
            #expect(try ledger.statuses()["prices.drop-folder"]?.lastError?.contains("unknown.csv: line 3: 'TSLAX' is not an asset") == true)

            // The same file dropped again: filed, nothing stored twice.
            try drop("prices-dropfolder.csv", as: "friday.csv")
            try ledger.harness.waitFor("the copy processed") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("processed/friday-2.csv").path) }
            #expect(try ledger.history("VWRL").count == 1)
            #expect(try ledger.history("IBM").count == 1)
        }
    }
}
