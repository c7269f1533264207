import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Reports, bank-CSV import, and the exports, through the CLI against a real store.
    @Suite struct ReportsImportExportTests {
        /// Wallets in EUR, USD and JPY (base EUR), two-level categories, and transactions with
        /// every shape a report must get right: splits, a refund, foreign spending, transfers
        /// between currencies, uncategorised income.
        static func sampleLedger(_ harness: ServiceHarness) throws {
            try harness.setUp()
            let steps: [[String]] = [
                ["rates", "set", "EUR", "USD", "1.0850"],
                ["rates", "set", "EUR", "JPY", "162.40"],
                ["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "1200.00"],
                ["wallet", "add", "Dollars", "--currency", "USD", "--starting-balance", "300.00"],
                ["wallet", "add", "Yen", "--currency", "JPY"],
                ["category", "add", "Food", "--kind", "expense"],
                ["category", "add", "Groceries", "--parent", "Food"],
                ["category", "add", "Eating out", "--parent", "Food"],
                ["category", "add", "Rent", "--kind", "expense"],
                // A parent with one child: hledger's tree leaves such a parent out unless told not to.
                ["category", "add", "Work", "--kind", "income"],
                ["category", "add", "Salary", "--parent", "Work"],
                ["tx", "add", "--wallet", "Checking", "--amount", "84.31", "--split", "60.01:Groceries", "--split", "24.30:Rent", "--notes", "Split: shop"],
                ["tx", "add", "--wallet", "Checking", "--amount", "12.40", "--category", "Food/Groceries", "--notes", "Lidl"],
                ["tx", "add", "--wallet", "Checking", "--amount", "2.40", "--category", "Food/Groceries", "--kind", "income", "--notes", "Lidl refund"],
                ["tx", "add", "--wallet", "Checking", "--amount", "3100", "--currency", "JPY", "--category", "Food/Eating out", "--notes", "Ramen"],
                ["tx", "add", "--wallet", "Dollars", "--amount", "19.99", "--category", "Food/Eating out", "--notes", "Diner"],
                ["tx", "add", "--wallet", "Dollars", "--amount", "10.00", "--currency", "EUR", "--category", "Rent", "--notes", "Deposit"],
                ["tx", "add", "--wallet", "Yen", "--amount", "1500", "--category", "Food/Groceries", "--notes", "Lawson"],
                ["tx", "add", "--wallet", "Checking", "--amount", "2500", "--kind", "income", "--category", "Work/Salary", "--notes", "ACME"],
                ["tx", "add", "--wallet", "Dollars", "--amount", "45.00", "--kind", "income", "--notes", "Sold a chair"],
                ["tx", "transfer", "--from", "Checking", "--to", "Yen", "--amount", "100", "--to-amount", "16240"],
                ["tx", "transfer", "--from", "Dollars", "--to", "Checking", "--amount", "50", "--to-amount", "46.08"],
                // Neither wallet in the base currency: each leg has its own base amount.
                ["tx", "transfer", "--from", "Dollars", "--to", "Yen", "--amount", "20", "--to-amount", "2990"],
            ]
            for step in steps {
                let result = try harness.cli(step)
                guard result.status == 0 else { throw HarnessError.commandFailed(step.joined(separator: " "), result.stderr) }
            }
        }

        static func decode<Value: Decodable>(_ type: Value.Type, _ result: ServiceHarness.CommandResult) throws -> Value {
            guard result.status == 0 else { throw HarnessError.commandFailed("ledgerly", result.stderr) }
            return try JSONDecoder().decode(Value.self, from: Data(result.stdout.utf8))
        }

        /// account → commodity → amount from `hledger … -O csv --layout=bare`.
        static func hledger(_ arguments: [String]) throws -> [String: [String: String]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/hledger")
            process.arguments = arguments + ["-O", "csv", "--layout=bare"]
            // hledger refuses non-ASCII text unless the locale is UTF-8.
            process.environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw HarnessError.commandFailed("hledger \(arguments.joined(separator: " "))", errors) }
            var result: [String: [String: String]] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r")) }
                if fields.count == 3 { result[fields[0], default: [:]][fields[1]] = fields[2] }
            }
            return result
        }

        @Test func theJournalGivesHledgerTheSameWalletBalancesAndCategoryTotals() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try Self.sampleLedger(harness)
            let journal = harness.home.root.appendingPathComponent("ledger.journal").path
            let export = try harness.cli("export", "journal", "-o", journal)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(try PeerTool.journalFailures(journal) == [])

            let balances = try Self.hledger(["-f", journal, "bal", "assets"])
            let report = try Self.decode(BalanceReport.self, try harness.cli("report", "balance", "--json"))
            // Checking 1200 − 84.31 − 12.40 + 2.40 − 19.09 (3100 JPY) + 2500 − 100 + 46.08; Dollars 300 −
            // 19.99 − 10.85 (10 EUR) + 45 − 50 − 20; Yen −1500 + 16240 + 2990.
            #expect(report.wallets.map(\.balance) == ["3532.68", "244.16", "17730"])
            for wallet in report.wallets {
                #expect(balances["assets:\(wallet.name)"]?[wallet.currency] == wallet.balance, "\(wallet.name)")
            }

            let totals = try Self.hledger(["-f", journal, "bal", "-B", "--tree", "--no-elide", "expenses", "income"])
            let categories = try Self.decode(CategoryReport.self, try harness.cli("report", "categories", "--json"))
            // Food, Food/Groceries, Food/Eating out, Rent; Work, Work/Salary and the uncategorised income.
            #expect(categories.categories.map(\.path) == ["Food", "Food/Eating out", "Food/Groceries", "Rent", "Work", "Work/Salary", "uncategorized"])
            for row in categories.categories {
                let account = (row.kind == .expense ? "expenses:" : "income:") + row.path.replacingOccurrences(of: "/", with: ":")
                let expected = row.kind == .expense ? row.total : "-" + row.total
                #expect(totals[account]?["EUR"] == expected, "\(account): ledgerly \(row.total), hledger \(totals[account] ?? [:])")
            }
            // ledger reads it too.
            let ledger = Process()
            ledger.executableURL = URL(fileURLWithPath: "/usr/bin/ledger")
            ledger.arguments = ["-f", journal, "bal"]
            ledger.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            ledger.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try ledger.run()
            ledger.waitUntilExit()
            #expect(ledger.terminationStatus == 0)
        }

        @Test func reportsPrintBarsJSONAndCSV() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try Self.sampleLedger(harness)
            let table = try harness.cli("report", "categories")
            #expect(table.status == 0)
            #expect(table.stdout.contains("SPENDING"))
            #expect(table.stdout.contains("█"))
            // Each top-level spending row's share, to one decimal rounded half away from zero
            // (Decimal's .plain), as printed.
            let categories = try Self.decode(CategoryReport.self, try harness.cli("report", "categories", "--json"))
            let spending = categories.categories.filter { $0.kind == .expense && $0.depth == 0 }
            let whole = spending.compactMap { Decimal(string: $0.total) }.reduce(0, +)
            for row in spending {
                var share = try #require(Decimal(string: row.total)) * 100 / whole, rounded = Decimal()
                NSDecimalRound(&rounded, &share, 1, .plain)
                let line = table.stdout.split(separator: "\n").first { $0.hasPrefix(row.path + " ") }
                let printed = line?.split(separator: " ").dropFirst().dropFirst().first.map(String.init)
                #expect(printed.flatMap { Decimal(string: $0) } == rounded, "\(row.path): \(line ?? "no line")")
            }
            let csv = try harness.cli("report", "categories", "--monthly", "--csv")
            #expect(csv.stdout.split(separator: "\n").first?.hasPrefix("category,kind,depth,") == true)
            #expect(csv.stdout.contains("Food/Groceries,expense,1,"))
            let flow = try Self.decode(CashFlowReport.self, try harness.cli("report", "cashflow", "--json"))
            #expect(flow.total.income == "2541.47")  // 2500 + 45.00 USD at 1.0850 (41.47)
            #expect(try harness.cli("report", "cashflow").stdout.contains("SAVED %"))
            let payees = try Self.decode(PayeeReport.self, try harness.cli("report", "payees", "--json"))
            #expect(payees.payees.first?.payee == "Split: shop")
            #expect(try harness.cli("report", "categories", "--from", "2026-13").status != 0)
        }

        /// A statement of `rows` rows, header on line 1 (row r is line r + 2). Every 500th row
        /// repeats the one before it (the same coffee twice that day): both must be imported.
        /// `badLine` gets an amount that is not a number.
        static func statement(rows: Int, badLine: Int? = nil) -> String {
            var text = "Date,Description,Amount\n"
            for row in 0..<rows {
                let source = row % 500 == 1 ? row - 1 : row
                let date = "2026-\(String(format: "%02d", source % 9 + 1))-\(String(format: "%02d", source % 28 + 1))"
                let amount = row + 2 == badLine ? "12.3x" : "-\(source % 97 + 1).\(String(format: "%02d", source % 100))"
                text += "\(date),Shop \(source),\(amount)\n"
            }
            return text
        }

        @Test func aStatementImportsOnceAndABadLineImportsNothing() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR").status == 0)
            let file = harness.home.root.appendingPathComponent("statement.csv")
            try Self.statement(rows: 10_000).write(to: file, atomically: true, encoding: .utf8)

            let dry = try Self.decode(TransactionImportReply.self, try harness.cli("import", "csv", file.path, "--wallet", "Checking", "--dry-run", "--json"))
            #expect(dry.imported == 10_000)
            #expect(try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--json")).total == 0)

            let first = try harness.cli("import", "csv", file.path, "--wallet", "Checking")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("Imported 10000 of 10000 rows"))
            let second = try Self.decode(TransactionImportReply.self, try harness.cli("import", "csv", file.path, "--wallet", "Checking", "--json"))
            #expect(second.imported == 0)
            #expect(second.duplicates.count == 10_000)
            #expect(try harness.cli("import", "csv", file.path, "--wallet", "Checking").stdout.contains("10000 duplicate(s) skipped"))

            let bad = harness.home.root.appendingPathComponent("bad.csv")
            try Self.statement(rows: 10_000, badLine: 5_001).write(to: bad, atomically: true, encoding: .utf8)
            #expect(try harness.cli("wallet", "add", "Other", "--currency", "EUR").status == 0)
            let refused = try harness.cli("import", "csv", bad.path, "--wallet", "Other")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("line 5001"), "\(refused.stderr)")
            let other = try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--wallet", "Other", "--json"))
            #expect(other.total == 0)
        }

        @Test func aMappingReadsDecimalCommasAndItsRulesSetCategoriesAndTags() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            for step in [["wallet", "add", "Giro", "--currency", "EUR"], ["category", "add", "Food", "--kind", "expense"], ["category", "add", "Groceries", "--parent", "Food"]] {
                #expect(try harness.cli(step).status == 0)
            }
            let statement = harness.home.root.appendingPathComponent("giro.csv")
            try """
                Buchungstag;Empfänger;Soll;Haben
                03.11.2026;LIDL SAGT DANKE;1.234,50;
                04.11.2026;Gehalt ACME;;2.500,00
                """.write(to: statement, atomically: true, encoding: .utf8)
            let mapping = harness.home.root.appendingPathComponent("giro.json")
            try """
                {"delimiter": ";", "date": "Buchungstag", "dateFormat": "DD.MM.YYYY", "description": "Empfänger",
                 "debit": "Soll", "credit": "Haben", "decimalSeparator": ",", "thousandsSeparator": ".",
                 "rules": [{"contains": "lidl", "category": "Food:Groceries", "tags": ["groceries"]}]}
                """.write(to: mapping, atomically: true, encoding: .utf8)
            let result = try harness.cli("import", "csv", statement.path, "--wallet", "Giro", "--mapping", mapping.path)
            #expect(result.status == 0, "\(result.stderr)")
            let list = try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--json"))
            let lidl = try #require(list.transactions.first { $0.notes == "LIDL SAGT DANKE" })
            #expect(lidl.amount == "1234.50")
            #expect(lidl.kind == .expense)
            #expect(lidl.date == "2026-11-03")
            #expect(lidl.tags == ["groceries"])
            #expect(lidl.categoryId != nil)
            let salary = try #require(list.transactions.first { $0.notes == "Gehalt ACME" })
            #expect(salary.kind == .income)
            #expect(salary.amount == "2500.00")

            // Taken back as a whole.
            let id = try #require(result.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            #expect(try harness.cli("import", "undo", id).status == 0)
            #expect(try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--json")).total == 0)
        }

        @Test func aRuleNamingACategoryTwoCategoriesShareIsRefusedUntilItGivesThePath() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            for step in [["wallet", "add", "Checking", "--currency", "EUR"], ["category", "add", "Personal", "--kind", "expense"],
                         ["category", "add", "Travel", "--parent", "Personal"], ["category", "add", "Business", "--kind", "expense"],
                         ["category", "add", "Travel", "--parent", "Business"]] {
                #expect(try harness.cli(step).status == 0)
            }
            let statement = harness.home.root.appendingPathComponent("card.csv")
            try "Date,Description,Amount\n2026-11-02,Train to Lyon,-42.00\n".write(to: statement, atomically: true, encoding: .utf8)
            let mapping = harness.home.root.appendingPathComponent("card.json")
            func rule(_ category: String) throws -> ServiceHarness.CommandResult {
                try #"{"date": "Date", "description": "Description", "amount": "Amount", "rules": [{"contains": "train", "category": "\#(category)"}]}"#
                    .write(to: mapping, atomically: true, encoding: .utf8)
                return try harness.cli("import", "csv", statement.path, "--wallet", "Checking", "--mapping", mapping.path)
            }
            let ambiguous = try rule("Travel")
            #expect(ambiguous.status != 0)
            #expect(ambiguous.stderr.contains("could be Personal/Travel or Business/Travel") || ambiguous.stderr.contains("could be Business/Travel or Personal/Travel"), "\(ambiguous.stderr)")
            #expect(try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--json")).total == 0)

            #expect(try rule("Business/Travel").status == 0)
            let categories = try Self.decode(CategoryListReply.self, try harness.cli("category", "list", "--json"))
            let businessTravel = try #require(categories.categories.first { $0.path == "Business/Travel" })
            #expect(try Self.decode(TransactionListReply.self, try harness.cli("tx", "list", "--json")).transactions.map(\.categoryId) == [businessTravel.id])
        }

        @Test func aJSONExportRebuildsTheSameLedgerInANewHome() throws {
            let original = try ServiceHarness()
            try original.start(.store)
            try Self.sampleLedger(original)
            try original.start(.alerts)
            let statement = original.home.root.appendingPathComponent("statement.csv")
            try "date,amount,description\n2026-11-02,-4.50,Bakery\n2026-11-03,-9.90,Cinema\n".write(to: statement, atomically: true, encoding: .utf8)
            let steps: [[String]] = [
                ["import", "csv", statement.path, "--wallet", "Checking"],
                ["budget", "set", "Food", "100"],  // already over 80 %: the alerts service raises it
                ["wallet", "add", "Savings", "--currency", "EUR"],
                // An auto-fund day that is not today's: on its day the alerts service would fund
                // the goal a third time while the test runs (it failed on every 1st of the month).
                ["goal", "add", "Holiday", "--target", "2400", "--deadline", "2027-07-01", "--wallet", "Savings", "--auto-fund", "200", "--auto-fund-from", "Checking",
                 "--auto-fund-day", Calendar.current.component(.day, from: Date()) == 1 ? "2" : "1"],
                ["goal", "fund", "Holiday", "150", "--from", "Checking"],  // a transfer, linked to the contribution
                ["goal", "fund", "Holiday", "20"],
                ["recurring", "add", "Rent", "--wallet", "Checking", "--amount", "800", "--category", "Rent", "--start", "2099-01-31"],
                ["recurring", "add", "Gym", "--wallet", "Checking", "--amount", "30", "--frequency", "weekly", "--start", "2099-01-01"],
                ["recurring", "pause", "Gym"],
                ["rates", "set", "EUR", "USD", "1.0900"],
                ["convert", "100", "USD"],
                ["wallet", "add", "Closed", "--currency", "EUR"],
                ["wallet", "archive", "Closed"],
            ]
            for step in steps {
                let result = try original.cli(step)
                #expect(result.status == 0, "\(step.joined(separator: " ")): \(result.stderr)")
            }
            try original.waitFor("the budget alerts") { try AlertsTests.alerts(original).count >= 2 }
            let file = original.home.root.appendingPathComponent("export.json")
            #expect(try original.cli("export", "json", "-o", file.path).status == 0)
            original.stop(.alerts)

            // Rates change afterwards: the restored figures must still be the kept ones. The alerts
            // service runs through the restore, as it would for a user.
            let copy = try ServiceHarness()
            try copy.start(.store)
            try copy.setUp()
            try copy.start(.alerts)
            #expect(try copy.cli("rates", "set", "EUR", "USD", "2.00").status == 0)
            let restored = try copy.cli("import", "json", file.path)
            #expect(restored.status == 0, "\(restored.stderr)")
            // The budget alerts the alerts service would raise again it finds raised.
            Thread.sleep(forTimeInterval: 2)
            let again = copy.home.root.appendingPathComponent("again.json")
            #expect(try copy.cli("export", "json", "-o", again.path).status == 0)

            let before = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            let after = try JSONSerialization.jsonObject(with: Data(contentsOf: again)) as! [String: Any]
            let beforeHeader = before["ledgerly"] as! [String: Any]
            let afterHeader = after["ledgerly"] as! [String: Any]
            // Every record, ids and times included, is as it was; only what the new ledger did
            // itself differs: when it was exported, its settings' change time, and the rate set in it.
            for member in Set(beforeHeader.keys).subtracting(["exportedAt", "settings", "rates"]).sorted() {
                #expect(Self.json(afterHeader[member]) == Self.json(beforeHeader[member]), "\(member)")
            }
            #expect(Self.json(Self.without("updatedAt", afterHeader["settings"])) == Self.json(Self.without("updatedAt", beforeHeader["settings"])))
            let rates = { (header: [String: Any]) in Set(((header["rates"] as? [Any]) ?? []).map { Self.json(Self.without("id", $0)) }) }
            #expect(rates(beforeHeader).count == 3 && rates(afterHeader).subtracting(rates(beforeHeader)).count == 1 && rates(afterHeader).isSuperset(of: rates(beforeHeader)))
            #expect(Self.json(after["transactions"]) == Self.json(before["transactions"]))

            let shape = try JSONDecoder().decode(LedgerExportShape.self, from: Data(contentsOf: again))
            #expect(shape.ledgerly.budgets.map(\.limit) == ["100.00"])
            #expect(shape.ledgerly.goals.first?.contributions.count == 2)
            #expect(shape.ledgerly.goals.first?.contributions.first?.transactionId != nil)
            #expect(shape.ledgerly.recurring.map(\.paused).sorted { !$0 && $1 } == [false, true])
            #expect(shape.ledgerly.alerts.count >= 2)
            #expect(shape.ledgerly.wallets.filter(\.archived).map(\.name) == ["Closed"])
            #expect(shape.ledgerly.conversions.count == 1)
            // The statement imported before the export is still known: importing it again adds nothing.
            let reimport = try copy.cli("import", "csv", statement.path, "--wallet", "Checking")
            #expect(reimport.status == 0 && reimport.stdout.contains("Imported 0 of 2"), "\(reimport.stdout)")
            // A second restore into the same ledger is refused.
            let second = try copy.cli("import", "json", file.path)
            #expect(second.status != 0 && second.stderr.contains("already has"))
        }

        /// A JSON value as canonical text, to compare two exports member by member.
        static func json(_ value: Any?) -> String {
            guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "null" }
            return String(decoding: data, as: UTF8.self)
        }

        static func without(_ key: String, _ value: Any?) -> Any? {
            guard var object = value as? [String: Any] else { return value }
            object[key] = nil
            return object
        }
    }
}

/// The parts of an export the test looks into, read back with the protocol's records.
private struct LedgerExportShape: Decodable {
    struct Header: Decodable {
        let wallets: [WalletRecord]
        let budgets: [BudgetRecord]
        let goals: [GoalRestore]
        let recurring: [RecurringRecord]
        let alerts: [AlertRecord]
        let conversions: [ConversionRecord]
    }

    let ledgerly: Header
}
