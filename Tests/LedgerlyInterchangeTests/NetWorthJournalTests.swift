import Foundation
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import LedgerlyTesting
import Testing

/// Manual assets and liabilities in the journal, read by the real hledger (and ledger): on every
/// day, each account's balance must be the value or balance Ledgerly's rules give (PROTOCOL.md
/// §20: the latest valuation on or before the day, by day then id; the balance after the latest
/// entry), computed here from the records, and a payment must lower the debt and the wallet
/// without being an expense.
@Suite struct NetWorthJournalTests {
    typealias F = ExportFixtures

    static func valuation(_ id: Int64, _ date: String, _ value: String) -> ValuationRecord {
        ValuationRecord(id: id, date: date, value: value, notes: id == 5 ? "Second opinion;\nlower" : nil, createdAt: "2024-06-01T00:00:00Z")
    }

    static func asset(_ id: Int64, _ name: String, _ currency: String, _ valuations: [ValuationRecord]) -> ManualAssetRecord {
        let latest = valuations.max { ($0.date, $0.id) < ($1.date, $1.id) }!
        return ManualAssetRecord(id: id, name: name, assetType: .tangible, currency: currency, value: latest.value, valuedOn: latest.date, volatile: false,
                                 includeInCore: true, includeInTangible: true, notes: nil, archived: false, createdAt: "2024-01-01T00:00:00Z",
                                 updatedAt: "2024-06-01T00:00:00Z", valuations: valuations)
    }

    static func entry(_ id: Int64, _ date: String, _ kind: LiabilityEntryKind, _ amount: String, after: String, transaction: Int64? = nil) -> LiabilityEntryRecord {
        LiabilityEntryRecord(id: id, date: date, kind: kind, amount: amount, balanceAfter: after, walletId: transaction == nil ? nil : 1,
                             transactionId: transaction, notes: nil, createdAt: "2024-06-01T00:00:00Z")
    }

    static func liability(_ id: Int64, _ name: String, _ currency: String, _ history: [LiabilityEntryRecord]) -> LiabilityRecord {
        let latest = history.max { ($0.date, $0.id) < ($1.date, $1.id) }!
        return LiabilityRecord(id: id, name: name, liabilityType: .loan, currency: currency, balance: latest.balanceAfter, balanceOn: latest.date,
                               interestRate: nil, dueDate: nil, notes: nil, archived: false, createdAt: "2024-01-01T00:00:00Z",
                               updatedAt: "2024-06-01T00:00:00Z", history: history)
    }

    /// Records given out of order on purpose: the rules order by day, then id.
    static let netWorth = NetWorthRestore(
        assets: [
            asset(2, "Watch: collection", "CHF", [valuation(3, "2024-04-01", "11500.50"), valuation(2, "2024-02-01", "12000.00")]),
            asset(1, "Flat in Lisbon", "EUR", [
                valuation(1, "2024-01-15", "300000.00"), valuation(5, "2024-03-01", "305000.00"), valuation(4, "2024-03-01", "310000.00"),
                valuation(9, "2024-05-01", "0.00"),
            ]),
        ],
        liabilities: [
            liability(1, "Mortgage", "EUR", [
                entry(1, "2024-01-10", .balance, "250000.00", after: "250000.00"),
                entry(2, "2024-02-01", .payment, "1200.00", after: "248800.00", transaction: 901),
                entry(3, "2024-03-31", .balance, "249100.00", after: "249100.00"),
                entry(4, "2024-04-01", .payment, "1200.00", after: "247900.00", transaction: 902),
            ]),
            liability(2, "Car loan", "USD", [
                entry(6, "2024-02-15", .payment, "500.00", after: "4500.00", transaction: 903),
                entry(5, "2024-01-05", .balance, "5000.00", after: "5000.00"),
                entry(7, "2024-03-10", .payment, "300.00", after: "4200.00", transaction: 905),
            ]),
        ],
        snapshots: [])

    static let transactions = [
        F.transaction(901, .expense, wallet: 1, "1200.00", "EUR", base: "1200.00", notes: "Mortgage February", date: "2024-02-01"),
        F.transaction(902, .expense, wallet: 1, "1200.00", "EUR", base: "1200.00", notes: "Mortgage April", date: "2024-04-01"),
        // Dollars paid from the EUR wallet: with the wallet's amount given (the transaction is in
        // euros, as the store records it), and converted at the day's rate (in dollars).
        F.transaction(903, .expense, wallet: 1, "460.00", "EUR", base: "460.00", date: "2024-02-15"),
        F.transaction(905, .expense, wallet: 1, "300.00", "USD", walletAmount: "276.00", base: "276.00", date: "2024-03-10"),
        F.transaction(904, .expense, wallet: 1, "50.00", "EUR", base: "50.00", category: 11, date: "2024-02-20"),
    ]

    static func journal() -> String {
        var writer = F.journalWriter()
        let netWorth = NetWorthJournal(Self.netWorth)
        writer.payments = netWorth.payments
        // As `export journal` writes it: the valuations and balances among the transactions by date.
        var dated = DatedEntries()
        netWorth.entries(declaringWith: &writer, into: &dated)
        var text = writer.header() + dated.directives + writer.openingBalances(date: "2024-01-01")
        for transaction in transactions.sorted(by: { ($0.date, $0.id) < ($1.date, $1.id) }) {
            text += dated.before(transaction.date) + writer.entry(for: transaction)
        }
        return text + dated.rest() + writer.finish()
    }

    /// What Ledgerly says each account holds at the end of `day`, from the records alone.
    static func expected(on day: String) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        let accounts = ["Flat in Lisbon": "assets:manual:Flat in Lisbon", "Watch: collection": "assets:manual:Watch- collection"]
        for asset in netWorth.assets {
            let latest = (asset.valuations ?? []).filter { $0.date <= day }.max { ($0.date, $0.id) < ($1.date, $1.id) }
            if let latest { result["\(accounts[asset.name]!) \(asset.currency)"] = try JournalCrossCheckTests.minor(latest.value, asset.currency) }
        }
        for liability in netWorth.liabilities {
            var balance: Int64?
            for entry in (liability.history ?? []).sorted(by: { ($0.date, $0.id) < ($1.date, $1.id) }) where entry.date <= day {
                let amount = try JournalCrossCheckTests.minor(entry.amount, liability.currency)
                balance = entry.kind == .balance ? amount : (balance ?? 0) - amount
            }
            if let balance { result["liabilities:\(liability.name) \(liability.currency)"] = -balance }
        }
        return result.filter { $0.value != 0 }
    }

    @Test(arguments: [
        ("2024-01-09", "2024-01-10"), ("2024-01-15", "2024-01-16"), ("2024-02-01", "2024-02-02"), ("2024-02-29", "2024-03-01"),
        ("2024-03-01", "2024-03-02"), ("2024-03-10", "2024-03-11"), ("2024-03-31", "2024-04-01"), ("2024-04-01", "2024-04-02"), ("2024-12-31", "2025-01-01"),
    ])
    func hledgerBalancesAreLedgerlysValuesOnEveryDay(day: String, next: String) throws {
        let file = try ExportTools.temporaryFile(Self.journal(), suffix: ".journal")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let balances = try JournalCrossCheckTests.hledgerBalances(file, ["-e", next, "^assets:manual(:|$)", "^liabilities(:|$)"])
        #expect(balances == (try Self.expected(on: day)), "on \(day)")
    }

    @Test func paymentsLowerTheWalletAndAreNoExpenseAndTheFileIsStrict() throws {
        let text = Self.journal()
        let file = try ExportTools.temporaryFile(text, suffix: ".journal")
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The wallet paid 1200 + 460 + 50 + 276 + 1200 from its 1000.00.
        let wallet = try JournalCrossCheckTests.hledgerBalances(file, ["^assets:Checking$"])
        #expect(wallet == ["assets:Checking EUR": 100_000 - 120_000 - 46_000 - 5_000 - 27_600 - 120_000])
        // At cost, the dollar payments are what the wallet paid; nothing needed a conversion difference.
        let cost = try JournalCrossCheckTests.hledgerBalances(file, ["-B", "^liabilities:Car loan$"])
        #expect(cost == ["liabilities:Car loan USD": -500_000 + 0, "liabilities:Car loan EUR": 46_000 + 27_600])
        #expect(!text.contains("conversion differences  "))
        // Only the groceries are spending.
        #expect(try JournalCrossCheckTests.hledgerBalances(file, ["-B", "^expenses(:|$)", "^income(:|$)"]) == ["expenses:Food:Groceries EUR": 5_000])
        // The revaluations are the other side of every valuation and balance entry.
        let equity = try JournalCrossCheckTests.hledgerBalances(file, ["^equity:revaluation$"])
        // The flat ends at 0 (sold); the watch at 11500.50 CHF; the mortgage opened at 250000.00 and
        // its statement added 300.00 (249100.00 after the February payment's 248800.00); the car
        // loan opened at 5000.00 USD.
        #expect(equity == ["equity:revaluation CHF": -1_150_050, "equity:revaluation EUR": 25_030_000, "equity:revaluation USD": 500_000])
        // hledger --strict, ledger --pedantic and hledger check ordereddates.
        #expect(try PeerTool.journalFailures(file) == [])
        #expect(text.contains("liabilities:Mortgage") && text.contains("ledgerly-valuation:5") && text.contains("    ; .. Second opinion;\n    ; .. lower\n"))
    }
}
