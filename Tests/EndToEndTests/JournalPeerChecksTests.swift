import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The journal export as a hledger or ledger user would check it: dates in order, every
    /// account, commodity and tag declared, text people write (accents, CJK, notes over several
    /// lines, colons and brackets in notes) kept and aligned by what a terminal shows (issue 18).
    @Suite struct JournalPeerChecksTests {
        @Test func aJournalOfWhatPeopleTypeIsOrderedAlignedAndPassesThePeersChecks() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let steps: [[String]] = [
                ["wallet", "add", "Café", "--currency", "EUR", "--starting-balance", "500"],
                ["wallet", "add", "東京 現金", "--currency", "EUR"],
                ["category", "add", "日本食", "--kind", "expense"],
                ["category", "add", "Food", "--kind", "expense"],
                // Recorded newest first: the export must still be in date order.
                ["tx", "add", "--wallet", "Café", "--amount", "12.50", "--category", "Food", "--date", "2026-03-05",
                 "--notes", "Lunch\nReminder: call Bob [1] at 12:30\n:urgent:\n", "--tag", "garden work", "--tag", "x"],
                ["tx", "add", "--wallet", "東京 現金", "--amount", "3.20", "--category", "日本食", "--date", "2026-01-02", "--notes", "寿司"],
                ["tx", "add", "--wallet", "Café", "--amount", "30", "--kind", "income", "--date", "2026-02-01"],
                // The earliest record is a transfer, which no category report counts.
                ["tx", "transfer", "--from", "Café", "--to", "東京 現金", "--amount", "10", "--date", "2025-11-15"],
                // Valued before any transaction: the opening balances come before it.
                ["asset", "add", "Bike", "--value", "400", "--date", "2025-12-01"],
                ["asset", "revalue", "Bike", "350", "--date", "2026-02-01", "--notes", "Appraisal: shop\nsecond line"],
            ]
            for step in steps {
                let result = try harness.cli(step)
                #expect(result.status == 0, "\(step.joined(separator: " ")): \(result.stderr)")
            }
            let journal = harness.home.root.appendingPathComponent("ledger.journal").path
            let export = try harness.cli("export", "journal", "-o", journal)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(try PeerTool.journalFailures(journal) == [])

            let text = try String(contentsOfFile: journal, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // Every line of the notes is kept; the first is the description.
            #expect(lines.contains("2026-03-05 (1) Lunch"), "\(text)")
            #expect(lines.contains("    ; .. Reminder: call Bob [ 1] at 12:30"), "\(text)")
            #expect(lines.contains("    ; .. :urgent:"), "\(text)")
            #expect(lines.contains("    ; .. second line"), "\(text)")
            // Amounts start in column 44 as a terminal counts: 日本食 and 東京 現金 take two columns a character.
            #expect(lines.contains("    expenses:日本食" + String(repeating: " ", count: 44 - 4 - 15) + "3.20 EUR"), "\(text)")
            #expect(lines.contains("    assets:Café" + String(repeating: " ", count: 44 - 4 - 11) + "500.00 EUR"), "\(text)")
            #expect(lines.contains("    assets:東京 現金" + String(repeating: " ", count: 44 - 4 - 16) + "-3.20 EUR"), "\(text)")
            // The opening balances are dated no later than the first record, here the transfer.
            #expect(lines.contains("2025-11-15 Opening balance: Café"), "\(text)")
        }

        /// The same ledger as beancount: `bean-check` accepts it, the names are beancount's, the
        /// notes whole, and `bean-query` gives the balances `ledgerly report balance` gives.
        @Test func theBeancountExportPassesBeanCheckWithTheSameBalances() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try ReportsImportExportTests.sampleLedger(harness)
            for step in [
                ["wallet", "add", "東京 現金", "--currency", "JPY"],
                ["category", "add", "日本食", "--kind", "expense"],
                ["tx", "add", "--wallet", "東京 現金", "--amount", "1200", "--category", "日本食", "--notes", "寿司\n\"Omakase\" \\ counter", "--tag", "trip 2026"],
                ["asset", "add", "Bike", "--value", "400", "--date", "2025-12-01"],
                // More lines than beancount takes in one string.
                ["tx", "add", "--wallet", "Checking", "--amount", "1", "--notes", (1...70).map { "line \($0)" }.joined(separator: "\n")],
            ] {
                let result = try harness.cli(step)
                #expect(result.status == 0, "\(step.joined(separator: " ")): \(result.stderr)")
            }
            let file = harness.home.root.appendingPathComponent("ledger.beancount").path
            let export = try harness.cli("export", "beancount", "-o", file)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(try PeerTool.beancountFailure(file) == nil)

            let totals = try PeerTool.beancountTotals(file, "SELECT account, sum(position) AS total WHERE account ~ '^Assets:' GROUP BY account")
            let report = try ReportsImportExportTests.decode(BalanceReport.self, try harness.cli("report", "balance", "--json"))
            let names = ["Checking": "Assets:Checking", "Dollars": "Assets:Dollars", "Yen": "Assets:Yen", "東京 現金": "Assets:X-東京-現金"]
            for wallet in report.wallets {
                let account = try #require(names[wallet.name])
                #expect(totals["\(account) \(wallet.currency)"] == wallet.balance, "\(wallet.name): \(totals)")
            }
            #expect(totals["Assets:Manual:Bike EUR"] == "400.00", "\(totals)")
            let categories = try PeerTool.beancountTotals(file, "SELECT account, sum(weight) AS total WHERE account ~ '^Expenses:' GROUP BY account")
            let report2 = try ReportsImportExportTests.decode(CategoryReport.self, try harness.cli("report", "categories", "--json"))
            let food = try #require(report2.categories.first { $0.path == "Food/Groceries" })
            #expect(categories["Expenses:Food:Groceries EUR"] == food.total, "\(categories)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains(" * \"寿司\n\\\"Omakase\\\" \\\\ counter\" #trip-2026\n"), "\(text)")
        }
    }
}
