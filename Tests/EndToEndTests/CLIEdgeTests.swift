import Foundation
import LedgerlyCore
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

        /// A transaction without `--date` is dated today where the user is (`TZ`), not in GMT: the
        /// CLI reads the zone through the C library since it links FoundationEssentials only
        /// (D380). Kiritimati (UTC+14) and GMT+12 are always on different days.
        @Test func todayIsTheUsersZonesDay() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR").status == 0)
            for zone in ["Pacific/Kiritimati", "Etc/GMT+12"] {
                let before = Date()
                let added = try harness.cli(["tx", "add", "--wallet", "Cash", "--amount", "1", "--notes", "in \(zone)"], environment: ["TZ": zone])
                let after = Date()
                #expect(added.status == 0, "\(zone): \(added.stderr)")
                let expected = Set([before, after].map { $0.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: zone)!).year().month().day()) })
                let listed = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8)).transactions
                let date = try #require(listed.first { $0.notes == "in \(zone)" }?.date)
                #expect(expected.contains(date), "\(zone): \(date), expected \(expected)")
            }
        }

        /// Issue 18: days as people type them, through the real binary: words, counts back, the
        /// locale's order, months as range bounds; an inverted range and an ambiguous day are
        /// refused before any service is asked.
        @Test func daysAsPeopleTypeThem() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR").status == 0)
            let today = try #require(LedgerDate(Timestamp.today()))
            let typed: [(String, [String: String], String)] = [
                ("yesterday", [:], try #require(today.adding(days: -1)).description),
                ("-2w", [:], try #require(today.adding(days: -14)).description),
                ("2026/11/02", [:], "2026-11-02"),
                ("03.11.2026", ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_TIME": ""], "2026-11-03"),
                ("11/04/2026", ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_TIME": ""], "2026-11-04"),
            ]
            for (text, environment, _) in typed {
                let added = try harness.cli(["tx", "add", "--wallet", "Cash", "--amount", "1", "--notes", "typed \(text)", "--date", text], environment: environment)
                #expect(added.status == 0, "\(text): \(added.stderr)")
            }
            let listed = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8)).transactions
            for (text, _, day) in typed {
                #expect(listed.first { $0.notes == "typed \(text)" }?.date == day, "\(text)")
            }
            // A month as range bounds: its first day to its last.
            let november = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--from", "2026-11", "--to", "2026/11", "--json").stdout.utf8))
            #expect(Set(november.transactions.compactMap(\.notes)).isSuperset(of: ["typed 2026/11/02", "typed 03.11.2026", "typed 11/04/2026"]))
            let inverted = try harness.cli("tx", "list", "--from", "2026-12", "--to", "2026-11")
            #expect(inverted.status == 64 && inverted.stderr.contains("--from 2026-12-01 is after --to 2026-11-30"), "\(inverted.stderr)")
            let ambiguous = try harness.cli(["tx", "add", "--wallet", "Cash", "--amount", "1", "--date", "03/11/2026"], environment: ["LANG": "C", "LC_ALL": "", "LC_TIME": ""])
            #expect(ambiguous.status == 64 && ambiguous.stderr.contains("could be read day first or month first"), "\(ambiguous.stderr)")
            let months = try harness.cli("report", "categories", "--from", "2026-12", "--to", "2026-11-15")
            #expect(months.status == 64 && months.stderr.contains("--from 2026-12 is after --to 2026-11"), "\(months.stderr)")
            let snapshots = try harness.cli("report", "networth", "--from", "2026-12", "--to", "2026-11")
            #expect(snapshots.status == 64 && snapshots.stderr.contains("--from 2026-12 is after --to 2026-11"), "\(snapshots.stderr)")
            // A forgotten value: the next option is not read as one.
            let forgotten = try harness.cli("tx", "add", "--date", "--wallet", "Cash", "--amount", "1")
            #expect(forgotten.status == 64 && forgotten.stderr.contains("a day is missing before --wallet"), "\(forgotten.stderr)")
        }

        /// Issue 18: amounts as people type them, through the real binary: thousands grouped, the
        /// locale's decimal comma, a currency mark; what could be misread is refused (exit 64).
        @Test func amountsAsPeopleTypeThem() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR").status == 0)
            let german = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_NUMERIC": ""]
            let plain = ["LANG": "C", "LC_ALL": "", "LC_NUMERIC": ""]
            let typed: [(String, [String: String], String)] = [
                ("1,234.56", plain, "1234.56"), ("€12.50", plain, "12.50"), ("1.234,50 €", german, "1234.50"), ("12,50", german, "12.50"),
            ]
            for (text, environment, _) in typed {
                let added = try harness.cli(["tx", "add", "--wallet", "Cash", "--amount", text, "--notes", "typed \(text)"], environment: environment)
                #expect(added.status == 0, "\(text): \(added.stderr)")
            }
            let listed = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8)).transactions
            for (text, _, amount) in typed {
                #expect(listed.first { $0.notes == "typed \(text)" }.map { "\($0.amount) \($0.currency)" } == "\(amount) EUR", "\(text)")
            }
            for (arguments, message) in [
                (["tx", "add", "--wallet", "Cash", "--amount", "12,50"], "groups its digits oddly"),
                (["tx", "add", "--wallet", "Cash", "--amount", "$5"], "several currencies use"),
                (["tx", "add", "--wallet", "Cash", "--amount", "€5", "--currency", "USD"], "marked EUR but --currency is USD"),
                (["goal", "add", "Trip", "--target", "€1,000"], "leave out EUR"),
            ] {
                let refused = try harness.cli(arguments, environment: plain)
                #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            }
            #expect(try harness.cli(["goal", "add", "Trip", "--target", "1,000"], environment: plain).status == 0)
            let funded = try harness.cli(["goal", "fund", "Trip", "1.250,50"], environment: german)
            #expect(funded.status == 0 && funded.stdout.contains("1250.50 of 1000.00"), "\(funded.stdout) \(funded.stderr)")
            // No amount at all is the store's refusal, as before (exit 1, naming the option).
            let garbage = try harness.cli(["tx", "add", "--wallet", "Cash", "--amount", "1e3"], environment: plain)
            #expect(garbage.status == 1 && garbage.stderr.contains("--amount"), "\(garbage.stderr)")
        }

        /// Issue 18: a mistyped command is named with the nearest one, before anything is asked.
        @Test func mistypedCommandsAreNamed() throws {
            let harness = try ServiceHarness()
            let typo = try harness.cli("tx", "lst")
            #expect(typo.status == 64 && typo.stderr.contains("did you mean 'list'?"), "\(typo.stderr)")
            let far = try harness.cli("xyzzy")
            #expect(far.status == 64 && !far.stderr.contains("did you mean"), "\(far.stderr)")
            // Wallet and category names too: offered, never acted on (exit 1, nothing recorded).
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR").status == 0)
            #expect(try harness.cli("category", "add", "Groceries", "--kind", "expense").status == 0)
            let wallet = try harness.cli("tx", "add", "--wallet", "Chekcing", "--amount", "1")
            #expect(wallet.status == 1 && wallet.stderr.contains("no wallet 'Chekcing'; did you mean 'Checking'?"), "\(wallet.stderr)")
            let category = try harness.cli("tx", "add", "--wallet", "Checking", "--amount", "1", "--category", "grocries")
            #expect(category.status == 1 && category.stderr.contains("did you mean 'Groceries'?"), "\(category.stderr)")
            #expect(try harness.cli("tx", "list").stdout.contains("Groceries") == false)
        }

        /// Issue 12: every `from` was called "the currency" and positional arguments `--id`/`--amount`.
        @Test func errorsNameTheArgumentThePersonTyped() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let month = try harness.cli("report", "categories", "--from", "2026-13")
            #expect(month.status == 64)
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

        /// Issue 45, item 14: `wallet add --starting-balance 2,000.00` was refused while
        /// `tx add --amount 1,234.56` was taken; through the real binary, both read alike now, and
        /// what could be misread is refused by both before anything is sent (D420).
        @Test func aStartingBalanceReadsAsAnAmountDoes() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let added = try harness.cli("wallet", "add", "Savings", "--currency", "EUR", "--starting-balance", "2,000.00")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try harness.cli("tx", "add", "--wallet", "Savings", "--amount", "1,234.56").status == 0)
            let wallets = try JSONDecoder().decode(WalletListReply.self, from: Data(try harness.cli("wallet", "list", "--json").stdout.utf8)).wallets
            #expect(wallets.map(\.startingBalance) == ["2000.00"] && wallets.map(\.balance) == ["765.44"])
            for arguments in [["wallet", "add", "Odd", "--currency", "EUR", "--starting-balance", "12,50"], ["tx", "add", "--wallet", "Savings", "--amount", "12,50"]] {
                let refused = try harness.cli(arguments)
                #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
                #expect(refused.stderr.contains(arguments[arguments.count - 2]), "\(refused.stderr)")
            }
            #expect(try harness.cli("wallet", "list").stdout.contains("Odd") == false)
        }
    }
}
