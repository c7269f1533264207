import Foundation
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import LedgerlyTesting
import Testing

/// Writes a small ledger with every kind of record as a journal and has the real hledger and
/// ledger read it: wallet balances and per-category base totals must be the figures computed here
/// from the records, the way the store computes them.
@Suite struct JournalCrossCheckTests {
    typealias F = ExportFixtures

    static let walletAccounts: [String: Int64] = [
        "assets:Checking": 1, "assets:US Card": 2, "assets:Tokyo Cash": 3, "assets:Savings- Joint Account": 4,
    ]
    static let categoryAccounts: [Int64: String] = [
        10: "expenses:Food", 11: "expenses:Food:Groceries", 12: "expenses:Food:Restaurants", 13: "income:Salary",
        14: "expenses:Home- Garden", 15: "expenses:Transport", 16: "expenses:Rent/Mortgage", 17: "income:Salary:Interest",
    ]

    /// About thirty transactions over EUR, USD and JPY wallets (base EUR), in the order an export
    /// would meet them, with transfer legs reversed and apart.
    static let transactions: [TransactionRecord] = {
        func split(_ parts: (String, Int64)...) -> [SplitPart] { parts.map { SplitPart(amount: $0.0, categoryId: $0.1) } }
        let eurToYen = F.transfer(121, from: 1, "100.00", "EUR", to: 3, "16250", "JPY", base: "100.00", notes: "To Tokyo")
        let noBase = F.transfer(123, from: 2, "50.00", "USD", to: 3, "7400", "JPY", base: nil)
        let foreign = F.transfer(125, from: 2, "50.00", "USD", to: 3, "7400", "JPY", base: "46.10")
        let sameCurrency = F.transfer(127, from: 1, "200.00", "EUR", to: 4, "200.00", "EUR", base: "200.00")
        let toDollars = F.transfer(129, from: 4, "100.00", "EUR", to: 2, "108.50", "USD", base: "100.00")
        // Legs the backfill converted apart (different base amounts) and that arrived two days later.
        var apart = F.transfer(136, from: 2, "20.00", "USD", to: 3, "2960", "JPY", base: "18.44")
        apart.incoming.baseAmount = "18.46"
        apart.incoming.date = "2024-03-07"
        // A leg whose counterpart is outside the export.
        let alone = F.transfer(140, from: 1, "10.00", "EUR", to: 4, "10.00", "EUR", base: "10.00").outgoing
        return [
            F.transaction(101, .expense, wallet: 1, "12.50", "EUR", base: "12.50", category: 11, notes: "Weekly shop", tags: ["food"]),
            F.transaction(102, .expense, wallet: 1, "20.00", "USD", walletAmount: "18.43", base: "18.43", category: 12),
            F.transaction(103, .expense, wallet: 3, "16250", "JPY", base: "99.87", category: 15),
            F.transaction(104, .expense, wallet: 2, "84.30", "EUR", walletAmount: "91.25", base: "84.31", category: 10),
            F.transaction(105, .expense, wallet: 2, "100.00", "USD", base: "92.06", splits: split(("33.33", 11), ("33.33", 12), ("33.34", 15))),
            F.transaction(106, .expense, wallet: 2, "30.00", "EUR", walletAmount: "32.51", base: "30.01", splits: split(("10.00", 11), ("20.00", 12))),
            F.transaction(107, .income, wallet: 1, "5.00", "EUR", base: "5.00", category: 11, notes: "Refund"),
            F.transaction(108, .income, wallet: 1, "250.00", "EUR", base: "250.00", notes: "Gift"),
            F.transaction(109, .expense, wallet: 3, "500", "JPY", base: "3.07"),
            F.transaction(110, .income, wallet: 1, "3000.00", "EUR", base: "3000.00", category: 13, notes: "March salary"),
            F.transaction(111, .income, wallet: 4, "1.23", "EUR", base: "1.23", category: 17),
            eurToYen.incoming,
            F.transaction(112, .expense, wallet: 2, "1500", "JPY", walletAmount: "10.12", base: nil, category: 12),
            F.transaction(113, .expense, wallet: 2, "3.00", "USD", base: nil, category: 12),
            F.transaction(114, .expense, wallet: 3, "12.00", "USD", walletAmount: "1780", base: "11.05", category: 16),
            F.transaction(115, .income, wallet: 2, "15.00", "USD", base: "13.80", category: 14, notes: "Returned a rake"),
            eurToYen.outgoing,
            F.transaction(116, .expense, wallet: 1, "45.67", "EUR", base: "45.67", splits: split(("12.34", 11), ("33.33", 14))),
            F.transaction(117, .expense, wallet: 3, "9999", "JPY", base: "61.43", splits: split(("3333", 11), ("3333", 12), ("3333", 15))),
            foreign.outgoing,
            F.transaction(118, .expense, wallet: 1, "7.77", "GBP", walletAmount: "9.10", base: "9.10", category: 15),
            F.transaction(119, .expense, wallet: 2, "0.01", "EUR", walletAmount: "0.01", base: "0.01", category: 15),
            F.transaction(120, .income, wallet: 3, "100000", "JPY", base: "615.00", category: 13),
            noBase.outgoing, noBase.incoming,
            foreign.incoming,
            sameCurrency.incoming, sameCurrency.outgoing,
            toDollars.outgoing, toDollars.incoming,
            F.transaction(131, .expense, wallet: 1, "3.20", "EUR", base: "3.20", category: 14,
                          notes: "Seeds;  tulips\nand  more", tags: ["garden work", "spring:2024"]),
            F.transaction(132, .expense, wallet: 2, "60.00", "USD", base: nil, splits: split(("20.00", 11), ("40.00", 12))),
            F.transaction(133, .expense, wallet: 1, "50.00", "USD", walletAmount: "46.01", base: "46.01", splits: split(("25.00", 11), ("25.00", 15))),
            F.transaction(134, .income, wallet: 2, "1000.00", "USD", base: "921.50", category: 13),
            apart.incoming,
            F.transaction(135, .expense, wallet: 3, "25.00", "EUR", walletAmount: "4060", base: "24.98", category: 10),
            alone,
            apart.outgoing,
        ]
    }()

    static func journal() -> String {
        var writer = F.journalWriter()
        var text = writer.header() + writer.openingBalances(date: "2024-01-01")
        for transaction in transactions { text += writer.entry(for: transaction) }
        text += writer.finish()
        return text
    }

    static func minor(_ text: String, _ code: String) throws -> Int64 {
        try Money(parsing: text, currency: Currency(code: code)).minorUnits
    }

    /// (account, commodity) → minor units, from `hledger bal -O csv --layout=bare -N`.
    static func balances(_ csv: String) throws -> [String: Int64] {
        let rows = ExportTools.parseCSV(csv)
        #expect(rows.first == ["account", "commodity", "balance"])
        var result: [String: Int64] = [:]
        for row in rows.dropFirst() {
            try #require(row.count == 3, "unexpected row \(row)")
            result["\(row[0]) \(row[1])"] = try minor(row[2], row[1])
        }
        return result
    }

    static func hledgerBalances(_ file: String, _ extra: [String]) throws -> [String: Int64] {
        let run = try PeerTool.run(PeerTool.hledger, ["-f", file, "bal", "-O", "csv", "--layout=bare", "-N"] + extra)
        try #require(run.status == 0, Comment(rawValue: "hledger bal \(extra) failed: \(run.failure)"))
        return try balances(run.stdout)
    }

    /// (account, commodity) → minor units, summed from `ledger csv` (one row per posting: date,
    /// code, payee, account, commodity, amount, …; amounts without trailing zeros, "12.5").
    /// ledger's own `bal --flat` includes subaccounts, so the postings are added up here instead.
    static func ledgerPostingSums(_ file: String, _ extra: [String]) throws -> [String: Int64] {
        let run = try PeerTool.run(PeerTool.ledger, ["-f", file, "csv"] + extra)
        try #require(run.status == 0 && run.stderr.isEmpty, Comment(rawValue: "ledger csv \(extra) failed: \(run.failure)"))
        var sums: [String: Int64] = [:]
        for row in ExportTools.parseCSV(run.stdout) {
            try #require(row.count >= 6, "unexpected row \(row)")
            sums["\(row[3]) \(row[4])", default: 0] += try minor(row[5], row[4])
        }
        return sums.filter { $0.value != 0 }
    }

    /// Every wallet's balance in its own commodity (starting balance plus signed wallet amounts),
    /// keyed "<account> <commodity>" under the wallet account names given.
    static func expectedAssets(_ walletAccounts: [String: Int64]) throws -> [String: Int64] {
        var expectedAssets: [String: Int64] = [:]
        for (account, walletId) in walletAccounts {
            let wallet = try #require(F.wallets.first { $0.id == walletId })
            var total = try Self.minor(wallet.startingBalance, wallet.currency)
            for transaction in Self.transactions where transaction.walletId == walletId {
                total += transaction.kind.sign * (try Self.minor(transaction.walletAmount, wallet.currency))
            }
            if total != 0 { expectedAssets["\(account) \(wallet.currency)"] = total }
        }
        return expectedAssets
    }

    /// Per category account, at cost: the base shares (or, without a base amount, the amount in
    /// its own currency, or its share of the wallet amount when that differs), under the names given.
    static func expectedCategories(_ categoryAccounts: [Int64: String], uncategorized: (expense: String, income: String)) throws -> [String: Int64] {
        var expectedCategories: [String: Int64] = [:]
        for transaction in Self.transactions where transaction.transfer == nil {
            let wallet = try #require(F.wallets.first { $0.id == transaction.walletId })
            let sign: Int64 = transaction.kind == .expense ? 1 : -1
            let parts: [(amount: String, category: Int64?)] = transaction.splits.isEmpty
                ? [(transaction.amount, transaction.categoryId)] : transaction.splits.map { ($0.amount, $0.categoryId) }
            let partUnits = try parts.map { try Self.minor($0.amount, transaction.currency) }
            let total = try Self.minor(transaction.amount, transaction.currency)
            let (commodity, shares): (String, [Int64])
            if let base = transaction.baseAmount {
                (commodity, shares) = ("EUR", ProportionalShares.allocate(try Self.minor(base, "EUR"), parts: partUnits, total: total))
            } else if transaction.currency != wallet.currency {
                (commodity, shares) = (wallet.currency, ProportionalShares.allocate(try Self.minor(transaction.walletAmount, wallet.currency), parts: partUnits, total: total))
            } else {
                (commodity, shares) = (transaction.currency, partUnits)
            }
            for (index, part) in parts.enumerated() {
                let account = part.category.map { categoryAccounts[$0]! } ?? (transaction.kind == .expense ? uncategorized.expense : uncategorized.income)
                expectedCategories["\(account) \(commodity)", default: 0] += sign * shares[index]
            }
        }
        return expectedCategories.filter { $0.value != 0 }
    }

    @Test func hledgerAndLedgerAgreeWithLedgerlysFigures() throws {
        let file = try ExportTools.temporaryFile(Self.journal(), suffix: ".journal")
        defer { try? FileManager.default.removeItem(atPath: file) }

        // (a) Every wallet's balance; (b) every category's total at cost.
        let expectedAssets = try Self.expectedAssets(Self.walletAccounts)
        let expectedCategories = try Self.expectedCategories(Self.categoryAccounts, uncategorized: ("expenses:uncategorized", "income:uncategorized"))
        #expect(try Self.hledgerBalances(file, ["-B", "^(expenses|income)(:|$)"]) == expectedCategories)

        // Opening balances are the wallets' starting balances; only the transfer converted apart
        // needed a conversion difference, and only the lone leg an unmatched-transfer posting.
        let equity = try Self.hledgerBalances(file, ["^equity(:|$)"])
        #expect(equity == [
            "equity:opening balances EUR": -100_000, "equity:opening balances USD": 2550, "equity:opening balances JPY": -50_000,
            "equity:conversion differences EUR": -2, "equity:unmatched transfers EUR": 1000,
        ])
        // The late leg keeps its own date (a posting date) in both tools.
        let late = try PeerTool.run(PeerTool.hledger, ["-f", file, "reg", "-O", "csv", "assets:Tokyo Cash", "date:2024-03-07"])
        #expect(late.status == 0 && late.stdout.contains("\"2024-03-07\",\"136\""), Comment(rawValue: late.failure))
        let ledgerLate = try PeerTool.run(PeerTool.ledger, ["-f", file, "csv", "^assets:Tokyo", "-b", "2024-03-07", "-e", "2024-03-08"])
        #expect(ledgerLate.status == 0 && ledgerLate.stdout.contains("\"2024/03/07\",\"136\""), Comment(rawValue: ledgerLate.failure))

        // Every account and commodity is declared.
        let strict = try PeerTool.run(PeerTool.hledger, ["-f", file, "--strict", "bal"])
        #expect(strict.status == 0, Comment(rawValue: "hledger --strict failed: \(strict.failure)"))

        // (c) ledger reads it too, without a word on stderr, and its postings add up to the same.
        let ledger = try PeerTool.run(PeerTool.ledger, ["-f", file, "bal"])
        #expect(ledger.status == 0 && ledger.stderr.isEmpty, Comment(rawValue: "ledger bal failed: \(ledger.failure)"))
        #expect(try Self.ledgerPostingSums(file, ["^assets:"]) == expectedAssets)
        #expect(try Self.ledgerPostingSums(file, ["-B", "^expenses:", "^income:"]) == expectedCategories)
    }

    /// Written in the store's date order (as `export journal` asks for it), the same records
    /// pass `hledger check ordereddates` and `ledger --pedantic`: a transfer is dated by its later
    /// leg, and every tag is declared. (The lone leg is left out: `finish()` writes it last,
    /// whatever its date, and the store never has one.)
    @Test func inDateOrderTheJournalPassesOrderedDatesAndPedanticChecks() throws {
        var writer = F.journalWriter()
        var text = writer.header() + writer.openingBalances(date: "2024-01-01")
        for transaction in Self.transactions.filter({ $0.id != 140 }).sorted(by: { ($0.date, $0.id) < ($1.date, $1.id) }) {
            text += writer.entry(for: transaction)
        }
        text += writer.finish()
        let file = try ExportTools.temporaryFile(text, suffix: ".journal")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try PeerTool.journalFailures(file) == [])
        // The legs converted apart: dated 2024-03-07, the day the money arrived; the leg that
        // left keeps its own day as a posting date.
        #expect(text.contains("2024-03-07 (136)"), Comment(rawValue: text))
        // The second line of the notes is kept as a comment.
        #expect(text.contains("    ; .. and  more\n"), Comment(rawValue: text))
    }

    /// The same records in beancount's syntax: `bean-check` accepts the file, and `bean-query`
    /// gives every wallet's balance and every category's weight (its base amount) as computed here.
    @Test func beancountAgreesWithLedgerlysFigures() throws {
        var writer = F.journalWriter(dialect: .beancount)
        var text = writer.header() + writer.openingBalances(date: "2024-01-01")
        for transaction in Self.transactions.sorted(by: { ($0.date, $0.id) < ($1.date, $1.id) }) { text += writer.entry(for: transaction) }
        text += writer.finish()
        let file = try ExportTools.temporaryFile(text, suffix: ".beancount")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try PeerTool.run(PeerTool.beanCheck, [file])
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty, Comment(rawValue: "bean-check failed: \(check.failure)"))

        let wallets: [String: Int64] = ["Assets:Checking": 1, "Assets:US-Card": 2, "Assets:Tokyo-Cash": 3, "Assets:Savings-Joint-Account": 4]
        let categories: [Int64: String] = [
            10: "Expenses:Food", 11: "Expenses:Food:Groceries", 12: "Expenses:Food:Restaurants", 13: "Income:Salary",
            14: "Expenses:Home-Garden", 15: "Expenses:Transport", 16: "Expenses:Rent-Mortgage", 17: "Income:Salary:Interest",
        ]
        let units = try Self.beancountSums(file, "SELECT account, sum(position) AS total WHERE account ~ '^Assets:' GROUP BY account")
        #expect(units == (try Self.expectedAssets(wallets)))
        let weights = try Self.beancountSums(file, "SELECT account, sum(weight) AS total WHERE account ~ '^(Expenses|Income):' GROUP BY account")
        #expect(weights == (try Self.expectedCategories(categories, uncategorized: ("Expenses:Uncategorized", "Income:Uncategorized"))))
        // Notes stay whole: the narration holds both lines.
        #expect(text.contains("* \"Seeds;  tulips\nand  more\" #garden-work #spring-2024\n"), Comment(rawValue: text))
    }

    /// (account, commodity) → minor units from a `bean-query` whose rows are an account and an
    /// inventory (`PeerTool.beancountTotals`).
    static func beancountSums(_ file: String, _ query: String) throws -> [String: Int64] {
        var sums: [String: Int64] = [:]
        for (key, text) in try PeerTool.beancountTotals(file, query) {
            let code = String(key.split(separator: " ").last ?? "")
            let units = try minor(text, code)
            if units != 0 { sums[key] = units }
        }
        return sums
    }
}
