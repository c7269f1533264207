import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// What the rates promise, checked with the real services against a local feed that counts
    /// every request (issue 45, items 1–3): nothing is fetched before setup nor in the manual
    /// exchange mode (D400); a rate's age is now minus its own date (D401); a feed's same-day
    /// correction is stored and reported (D402).
    @Suite struct RatesPromisesTests {
        /// An ECB daily document for one reference date, as `eurofxref-daily.xml` is shaped.
        static func ecbDocument(date: String, usd: String, jpy: String = "175.68") -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            \t<gesmes:subject>Reference rates</gesmes:subject>
            \t<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
            \t<Cube>
            \t\t<Cube time='\(date)'>
            \t\t\t<Cube currency='USD' rate='\(usd)'/>
            \t\t\t<Cube currency='JPY' rate='\(jpy)'/>
            \t\t\t<Cube currency='GBP' rate='0.83380'/>
            \t\t</Cube>
            \t</Cube>
            </gesmes:Envelope>
            """
        }

        static func day(_ date: Date) -> String { String(Timestamp.string(from: date).prefix(10)) }

        static func ecb(_ server: ProviderServer, _ file: String) -> [String: Any] {
            ["name": "ecb", "format": "ecb-daily-xml", "url": server.url("state/\(file)"), "profile": "official", "minimumSecondsBetweenRequests": 0]
        }

        @Test func noProviderIsAskedBeforeSetupNorInTheManualMode() throws {
            let server = try ProviderServer()
            try server.serve("ecb.xml", Self.ecbDocument(date: Self.day(Date()), usd: "1.1172"))
            let harness = try ServiceHarness()
            try harness.configureRates([
                "providers": [Self.ecb(server, "ecb.xml")],
                "prices": ["coinGecko": ["url": server.url("coingecko-simple-price-assets.json"), "minimumSecondsBetweenRequests": 0]],
                "dropFolder": ["enabled": false],
            ])
            try harness.start(.store)
            try harness.start(.rates)
            // Before setup: the schedule's first turn and an asked refresh reach nobody.
            let early = try harness.cli("rates", "refresh")
            #expect(early.status == 2, "\(early.stdout)\(early.stderr)")
            #expect(early.stderr.contains("nothing was fetched: setup is not complete"), "\(early.stderr)")
            Thread.sleep(forTimeInterval: 2)
            #expect(server.requestCount == 0)

            // Set up in the manual mode; a wallet in a new currency and a watched coin, which in
            // the other modes make the providers due at once, ask nothing either.
            let setup = try harness.cli("setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes")
            #expect(setup.status == 0, "\(setup.stderr)")
            #expect(try harness.cli("wallet", "add", "Pounds", "--currency", "GBP").status == 0)
            _ = try harness.client().call(AssetCreateRequest(symbol: "BTC", assetType: .crypto, quoteCurrency: "EUR", provider: .coingecko, providerId: "bitcoin", watched: true))
            Thread.sleep(forTimeInterval: 2)
            let manual = try harness.cli("rates", "refresh")
            #expect(manual.status == 1)
            #expect(manual.stderr.contains("nothing was fetched: the exchange mode is manual"), "\(manual.stderr)")
            #expect(manual.stderr.contains("neither rates nor security prices"))
            let json = try harness.cli("rates", "refresh", "--json")
            #expect(json.status == 1)
            let reply = try JSONDecoder().decode(RatesRefreshReply.self, from: Data(json.stdout.utf8))
            #expect(reply.providers.isEmpty && reply.notFetched?.contains("manual") == true)
            #expect(server.requestCount == 0)
            #expect(try harness.rates().isEmpty)

            // The feed was there all along: switching to the official mode asks it at once.
            #expect(try harness.cli("rates", "profile", "use", "official").status == 0)
            try harness.waitFor("the feed to be asked", seconds: 15) { server.requestPaths(containing: "state/ecb.xml").count > 0 }
            try harness.waitFor("the coin to be priced", seconds: 15) { server.requestPaths(containing: "coingecko").count > 0 }
            try harness.waitFor("EUR/GBP") { try harness.rates().contains { $0.quote == "GBP" } }
        }

        /// The setup wizard's welcome says nothing is sent, and nothing is, whatever is configured;
        /// its exchange-mode step says what each mode fetches and when.
        @Test func theSetupWizardSendsNothingAndSaysWhatEachModeFetches() throws {
            let server = try ProviderServer()
            let harness = try ServiceHarness()
            try harness.configureProviders([["name": "ecb", "format": "ecb-daily-xml", "url": server.url("eurofxref-daily.xml"), "profile": "official"]])
            try harness.start(.store)
            try harness.start(.rates)
            // Setup asks only on a terminal: `script` gives it one (util-linux, in every Debian).
            let setup = Process()
            setup.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            setup.arguments = ["-qec", "\(ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly").path) setup", "/dev/null"]
            setup.environment = ProcessInfo.processInfo.environment.merging(["LEDGERLY_HOME": harness.home.root.path, "NO_COLOR": "1", "TERM": "dumb"]) { $1 }
            let input = Pipe(), output = Pipe()
            setup.standardInput = input
            setup.standardOutput = output
            try setup.run()
            // If a prompt changes and setup waits for more input, end it instead of hanging the suite.
            let watchdog = DispatchWorkItem { if setup.isRunning { setup.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
            input.fileHandleForWriting.write(Data("\nEUR\nq\n".utf8))
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            setup.waitUntilExit()
            watchdog.cancel()
            try? input.fileHandleForWriting.close()
            #expect(text.contains("Nothing is sent anywhere during setup."), "\(text)")
            #expect(text.contains("No official exchange rates are known yet; nothing is fetched before setup is complete."))
            #expect(text.contains("prices of the securities you hold or watch too"))
            #expect(text.contains("only the rates (and security prices) you enter yourself; nothing is fetched"))
            #expect(text.contains("paused at step 3"))
            #expect(server.requestCount == 0)
        }

        @Test func aFeedDocumentDatedTenDaysAgoIsStaleByItsOwnDate() throws {
            let server = try ProviderServer()
            let tenDaysAgo = Self.day(Date().addingTimeInterval(-10 * 86_400))
            try server.serve("ecb.xml", Self.ecbDocument(date: tenDaysAgo, usd: "1.1172"))
            let harness = try ServiceHarness()
            try harness.configureRates(["providers": [Self.ecb(server, "ecb.xml")], "dropFolder": ["enabled": false]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)
            try harness.waitFor("the first refresh") { try harness.rates().count == 2 }

            // Fetched a moment ago, dated ten days ago: ten days old, stale.
            let rates = try harness.rates()
            #expect(rates.allSatisfy { $0.stale == true && ($0.ageSeconds ?? 0) >= 10 * 86_400 && $0.asOf == "\(tenDaysAgo)T00:00:00.000Z" }, "\(rates)")
            let table = try harness.cli("rates", "list").stdout
            #expect(table.contains("EUR/USD"))
            #expect(table.contains("10 d"), "\(table)")
            #expect(table.contains("stale"))
            // Confirmed again by the feed, it stays as old as its date: a stuck feed looks stuck.
            let refresh = try harness.cli("rates", "refresh", "--json")
            #expect(try JSONDecoder().decode(RatesRefreshReply.self, from: Data(refresh.stdout.utf8)).providers.first?.confirmed == 2)
            #expect(try harness.rates().allSatisfy { $0.stale == true && ($0.ageSeconds ?? 0) >= 10 * 86_400 })
            let converted = try harness.cli("convert", "100", "USD")
            #expect(converted.stderr.contains("rate 10 d old"), "\(converted.stderr)")
        }

        @Test func aSameDayCorrectionIsStoredShownAndReported() throws {
            let server = try ProviderServer()
            let today = Self.day(Date())
            try server.serve("ecb.xml", Self.ecbDocument(date: today, usd: "1.08"))
            let harness = try ServiceHarness()
            try harness.configureRates(["providers": [Self.ecb(server, "ecb.xml")], "dropFolder": ["enabled": false]])
            try harness.setUpLedgerInUSDAndJPY()
            try harness.start(.rates)
            try harness.waitFor("the first refresh") { try harness.rates().count == 2 }
            // Spent with the first value: 108 USD is 100.00 EUR, and stays so.
            let spent = try harness.cli("tx", "add", "--wallet", "USD", "--amount", "108", "--json")
            #expect(spent.status == 0, "\(spent.stderr)")
            let lunch = try JSONDecoder().decode(TransactionRecord.self, from: Data(spent.stdout.utf8))
            #expect(lunch.baseAmount == "100.00")

            // The feed corrects USD for the same date.
            try server.serve("ecb.xml", Self.ecbDocument(date: today, usd: "1.09"))
            let refresh = try harness.cli("rates", "refresh")
            #expect(refresh.status == 0, "\(refresh.stderr)")
            let header = try #require(refresh.stdout.split(separator: "\n").first)
            #expect(header.contains("NEW") && header.contains("CORRECTED") && header.contains("CONFIRMED"))
            let row = try #require(refresh.stdout.split(separator: "\n").first { $0.hasPrefix("ecb") })
            #expect(row.split(separator: " ").prefix(5).map(String.init) == ["ecb", "official", "0", "1", "1"], "\(refresh.stdout)")

            let history = try JSONDecoder().decode(RateHistoryReply.self, from: Data(try harness.cli("rates", "history", "EUR", "USD", "--json").stdout.utf8))
            #expect(history.rates.map(\.rate) == ["1.09", "1.08"])  // newest first
            #expect(try harness.rates().first { $0.quote == "USD" }?.rate == "1.09")
            let table = try harness.cli("rates", "history", "EUR", "USD").stdout
            #expect(table.contains("1.09") && table.contains("1.08"))
            // The transaction keeps the rate it was converted with.
            let kept = try JSONDecoder().decode(TransactionRecord.self, from: Data(try harness.cli("tx", "show", String(lunch.id), "--json").stdout.utf8))
            #expect(kept.baseAmount == "100.00")
            #expect(kept.baseConversion?.legs?.first?.rate == "1.08")

            // Served again, nothing is corrected twice.
            let again = try JSONDecoder().decode(RatesRefreshReply.self, from: Data(try harness.cli("rates", "refresh", "--json").stdout.utf8))
            #expect(again.providers.map { "\($0.stored) \($0.corrected) \($0.confirmed)" } == ["0 0 2"])
        }
    }
}
