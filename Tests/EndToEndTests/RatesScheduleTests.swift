import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The rates service on its own: refreshing on a schedule and when a currency comes into use,
    /// backing off a failing provider (and resuming that backoff after a restart), staleness that
    /// a restart's newer rates clear, and the drop folder. Time passes by starting services with
    /// `--clock-offset`, the same real processes a user runs.
    @Suite struct RatesScheduleTests {
        static func convert(_ harness: ServiceHarness, _ arguments: String...) throws -> ConversionRecord {
            let result = try harness.cli(["convert"] + arguments + ["--json"])
            guard result.status == 0 else { throw HarnessError.commandFailed("convert", result.stderr) }
            return try JSONDecoder().decode(ConversionRecord.self, from: Data(result.stdout.utf8))
        }

        static func providers(_ harness: ServiceHarness) throws -> [String: RateProviderStatus] {
            struct Report: Decodable { let providers: [RateProviderStatus] }
            let result = try harness.cli("status", "--json")
            let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
            return Dictionary(uniqueKeysWithValues: report.providers.map { ($0.name, $0) })
        }

        /// A EUR ledger with USD and JPY wallets, the rates service on the recorded ECB file, and
        /// its first (scheduled, unasked) refresh done.
        static func ledgerWithTheECB(_ server: ProviderServer) throws -> ServiceHarness {
            let harness = try ServiceHarness()
            try harness.configureProviders([["name": "ecb", "format": "ecb-daily-xml", "url": server.url("eurofxref-daily.xml"), "profile": "official"]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)
            try harness.waitFor("the first refresh") { try harness.rates().count == 2 }
            return harness
        }

        /// A rates API document (Open Exchange Rates' shape, EUR based) stamped `moment`.
        static func stampedDocument(at moment: Date) -> String {
            #"{"timestamp":\#(Int(moment.timeIntervalSince1970)),"base":"EUR","rates":{"USD":1.1172,"JPY":175.68}}"#
        }

        @Test func killingTheRatesServiceLeavesConversionsStaleAndARestartRefreshesThem() throws {
            let server = try ProviderServer()
            try server.serve("latest.json", Self.stampedDocument(at: Date()))
            let harness = try ServiceHarness()
            try harness.configureProviders([["name": "rates-api", "format": "rates-api-json", "url": server.url("state/latest.json"), "profile": "official"]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)
            try harness.waitFor("the first refresh") { try harness.rates().count == 2 }
            let fresh = try Self.convert(harness, "100", "USD", "--to", "JPY")
            #expect(fresh.result == "15725")
            #expect(fresh.warning == nil)

            // The rates service dies; two hours pass (the store restarts with its clock moved on).
            harness.stop(.rates, signal: SIGKILL)
            harness.stop(.store)
            try harness.start(.store, extraArguments: ["--clock-offset", "7260"])
            let offline = try harness.cli("convert", "100", "USD", "--to", "JPY")
            #expect(offline.status == 0)
            #expect(offline.stdout.contains("15725 JPY"))  // still answers, from the stored rates…
            #expect(offline.stderr.contains("rate 2 h old"))  // …and says they are old
            #expect(try harness.rates().allSatisfy { $0.stale == true })

            // Started again, it sees the last success was more than an interval ago and refreshes;
            // the feed has a newer document by then (its age counts from its stamp, D401).
            try server.serve("latest.json", Self.stampedDocument(at: Date().addingTimeInterval(7_200)))
            try harness.start(.rates, extraArguments: ["--clock-offset", "7260"])
            try harness.waitFor("the warning to go away") { try Self.convert(harness, "100", "USD", "--to", "JPY").warning == nil }
            #expect(try harness.rates().allSatisfy { $0.stale == false })
            #expect(try Self.providers(harness)["rates-api"]?.lastError == nil)
        }

        @Test func aWalletInANewCurrencyIsFetchedWithoutBeingAsked() throws {
            let server = try ProviderServer()
            let harness = try Self.ledgerWithTheECB(server)
            // The interval is an hour: only the wallet.created event can explain a GBP rate now.
            #expect(try harness.cli("wallet", "add", "Pounds", "--currency", "GBP").status == 0)
            try harness.waitFor("EUR/GBP", seconds: 15) { try harness.rates().contains { $0.quote == "GBP" } }
            #expect(try Self.convert(harness, "100", "GBP", "--to", "EUR").result == "119.93")  // 100 ÷ 0.8338 = 119.932…
        }

        @Test func aFailingProviderBacksOffIsVisibleAndRecovers() throws {
            let server = try ProviderServer()
            let harness = try ServiceHarness()
            server.setDown("ecb", true)
            try harness.configureRates([
                "providers": [["name": "ecb", "format": "ecb-daily-xml", "url": server.url("switch/ecb/eurofxref-daily.xml"), "profile": "official",
                               "minimumSecondsBetweenRequests": 0]],
                "schedule": ["retryInitialSeconds": 1, "retryMaximumSeconds": 4],
                "dropFolder": ["enabled": false],
            ])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)

            try harness.waitFor("three failures", seconds: 20) { (try Self.providers(harness)["ecb"]?.consecutiveFailures ?? 0) >= 3 }
            let failing = try #require(try Self.providers(harness)["ecb"])
            #expect(failing.lastError?.contains("HTTP 500") == true)
            #expect(failing.lastSuccessAt == nil)
            let status = try harness.cli("status")
            #expect(status.stdout.contains("failing"))
            #expect(status.stdout.contains("HTTP 500"))
            // The waits double: 1 s, then 2 s (with scheduling slack).
            let times = server.requestTimes(containing: "switch/ecb")
            #expect(times.count >= 3)
            if times.count >= 3 {
                #expect(times[1] - times[0] >= 0.9)
                #expect(times[2] - times[1] >= 1.9)
            }
            #expect(try harness.rates().isEmpty)  // nothing stored from a failure
            #expect(try harness.cli("log", "--json").stdout.contains("rates.provider.status"))

            // A restart resumes the count instead of starting over.
            harness.stop(.rates, signal: SIGKILL)
            let before = try #require(try Self.providers(harness)["ecb"]).consecutiveFailures
            try harness.start(.rates)
            try harness.waitFor("one more failure") { (try Self.providers(harness)["ecb"]?.consecutiveFailures ?? 0) > before }

            // The provider comes back: the next attempt succeeds and the error clears.
            server.setDown("ecb", false)
            try harness.waitFor("recovery", seconds: 15) { try Self.providers(harness)["ecb"]?.lastError == nil }
            let healthy = try #require(try Self.providers(harness)["ecb"])
            #expect(healthy.consecutiveFailures == 0)
            #expect(healthy.lastSuccessAt != nil)
            #expect(try harness.rates().count == 2)
            #expect(harness.status(.rates) != nil)
        }

        @Test func theDropFolderFeedsTheParallelProfileAndRejectsBadFiles() throws {
            let harness = try ServiceHarness()
            try harness.configureRates(["providers": [], "dropFolder": ["scanSeconds": 0.2]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)
            let folder = harness.home.root.appendingPathComponent("dropfolder")
            try harness.waitFor("the drop folder") { FileManager.default.fileExists(atPath: folder.path) }

            try Data("base,quote,rate,date\nUSD,ARS,1185.50,2026-11-20\n".utf8).write(to: folder.appendingPathComponent("blue.csv"))
            try harness.waitFor("blue.csv to be processed") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("processed/blue.csv").path) }
            let parallel = try harness.rates(profile: "parallel")
            #expect(parallel.map { "\($0.base)/\($0.quote) \($0.rate) \($0.source)" } == ["USD/ARS 1185.5 dropfolder"])
            // Dropped a moment ago, dated 2026-11-20: as old as that date, stale (D401).
            #expect(parallel.allSatisfy { $0.stale == true && ($0.ageSeconds ?? 0) > 86_400 }, "\(parallel)")
            #expect(try Self.convert(harness, "100", "USD", "--to", "ARS", "--mode", "parallel").result == "118550.00")

            try Data("base,quote,rate\nUSD,ARS,1200\nUSD,NGN,-1620\n".utf8).write(to: folder.appendingPathComponent("bad.csv"))
            // The file is moved first and its note written next to it: wait for the note.
            try harness.waitFor("bad.csv to be rejected") { FileManager.default.fileExists(atPath: folder.appendingPathComponent("rejected/bad.csv.error.txt").path) }
            let reason = try String(contentsOf: folder.appendingPathComponent("rejected/bad.csv.error.txt"), encoding: .utf8)
            #expect(reason.contains("line 3"))
            #expect(try harness.rates(profile: "parallel").map(\.rate) == ["1185.5"])  // nothing from the bad file
            try harness.waitFor("the rejection in status") { try Self.providers(harness)["dropfolder"]?.lastError?.contains("bad.csv") == true }
            #expect(harness.status(.rates) != nil)
        }
    }
}
