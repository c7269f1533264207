import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// A deterministic synthetic history, the shape docs/measured-limits.md measured the peers with:
/// five years, 8 wallets in EUR/USD/JPY, 25 categories in two levels, with transfers, split
/// transactions, foreign-currency spending, tags, and daily EUR/USD and EUR/JPY rates.
///
/// The same seed gives the same ledger, so figures from two runs are about the same data.
/// In LedgerlyTesting so that every benchmark loading a ledger (`ledger`, `networth`) loads this one.
public struct SyntheticHistory: Sendable {
    public struct Wallet: Sendable {
        public let name: String
        public let currency: String
        public let startingBalance: String
    }

    public static let wallets = [
        Wallet(name: "Checking", currency: "EUR", startingBalance: "2500.00"),
        Wallet(name: "Savings", currency: "EUR", startingBalance: "10000.00"),
        Wallet(name: "Cash", currency: "EUR", startingBalance: "200.00"),
        Wallet(name: "US Checking", currency: "USD", startingBalance: "3000.00"),
        Wallet(name: "US Card", currency: "USD", startingBalance: "0.00"),
        Wallet(name: "US Savings", currency: "USD", startingBalance: "5000.00"),
        Wallet(name: "Yen", currency: "JPY", startingBalance: "50000"),
        Wallet(name: "Suica", currency: "JPY", startingBalance: "5000"),
    ]

    /// Parent → children; 7 parents + 18 children = 25 categories.
    public static let expenseCategories: [(String, [String])] = [
        ("Food", ["Groceries", "Restaurants", "Coffee", "Delivery"]),
        ("Housing", ["Rent", "Utilities", "Repairs"]),
        ("Transport", ["Fuel", "Transit", "Taxi"]),
        ("Leisure", ["Travel", "Books", "Games"]),
        ("Health", ["Doctor", "Pharmacy"]),
    ]
    public static let incomeCategories: [(String, [String])] = [
        ("Salary", ["Base", "Bonus"]),
        ("Other income", ["Interest"]),
    ]
    static let payees = ["Lidl", "Aldi", "Carrefour", "Starbucks", "Blue Bottle", "Uber", "Shell", "Amazon", "IKEA", "Deutsche Bahn",
                         "Lawson", "FamilyMart", "7-Eleven", "Whole Foods", "Trader Joe's", "Netflix", "Spotify", "Apple", "Pharmacy Mitte", "Dr. Sato",
                         "Landlord", "Stadtwerke", "Vattenfall", "Airbnb", "Lufthansa", "JR East", "Book Off", "Steam", "Nintendo", "Bakery"]
    static let tags = ["work", "holiday", "family", "reimbursable", "gift"]

    public static let firstDay = LedgerDate("2021-11-01")!
    public static let days = 1_826

    /// "YYYY-MM-DD" of every day of the history.
    static let dates = (0..<days).map { firstDay.adding(days: $0)!.description }

    public let count: Int
    private var random: SplitMix
    private var index = 0

    public init(count: Int, seed: UInt64 = 20_261_121) {
        self.count = count
        self.random = SplitMix(seed: seed)
    }

    /// Every day's EUR→USD and EUR→JPY rate, as the ECB would publish them.
    public static func rates() -> [RateInput] {
        (0..<days).flatMap { day -> [RateInput] in
            let date = dates[day]
            let (usd, jpy) = rate(day: day)
            return [RateInput(base: "EUR", quote: "USD", rate: usd, asOf: "\(date)T14:15:00Z"),
                    RateInput(base: "EUR", quote: "JPY", rate: jpy, asOf: "\(date)T14:15:00Z")]
        }
    }

    /// EUR/USD between 1.0000 and 1.1999, EUR/JPY between 130.00 and 169.99, drifting by day.
    private static func rate(day: Int) -> (usd: String, jpy: String) {
        let usd = 10_000 + (day * 37) % 2_000
        let jpy = 13_000 + (day * 53) % 4_000
        return ("1.\(String(usd - 10_000).leftPadded(4))", "\(jpy / 100).\(String(jpy % 100).leftPadded(2))")
    }

    /// The next batch of import items (transactions and transfers), dates ascending; empty at the end.
    /// `walletIds`, `expenseIds`, `incomeIds`: the ids the store gave the wallets and the child categories.
    public mutating func nextBatch(size: Int, walletIds: [Int64], expenseIds: [Int64], incomeIds: [Int64]) -> [TransactionImportItem] {
        var items: [TransactionImportItem] = []
        while items.count < size && index < count {
            let day = index * Self.days / count
            let date = Self.dates[day]
            index += 1
            let roll = random.next() % 100
            let walletIndex = Int(random.next() % UInt64(walletIds.count))
            let wallet = Self.wallets[walletIndex]
            let note = Self.payees[Int(random.next() % UInt64(Self.payees.count))]
            let tags = random.next() % 10 == 0 ? [Self.tags[Int(random.next() % UInt64(Self.tags.count))]] : nil
            if roll < 5 {
                var other = Int(random.next() % UInt64(walletIds.count - 1))
                if other >= walletIndex { other += 1 }
                let target = Self.wallets[other]
                let amount = amount(in: wallet.currency, cents: 5_000...200_000)
                let toAmount = target.currency == wallet.currency ? nil : Self.converted(amount, from: wallet.currency, to: target.currency, day: day)
                items.append(TransactionImportItem(transfer: TransferCreateRequest(
                    fromWalletId: walletIds[walletIndex], toWalletId: walletIds[other], amount: amount, toAmount: toAmount, date: date, notes: "Transfer", tags: tags)))
            } else if roll < 15 {
                let category = incomeIds[Int(random.next() % UInt64(incomeIds.count))]
                items.append(TransactionImportItem(transaction: TransactionCreateRequest(
                    kind: .income, walletId: walletIds[walletIndex], amount: amount(in: wallet.currency, cents: 50_000...500_000),
                    categoryId: category, notes: "ACME payroll", date: date, tags: tags)))
            } else {
                // 5 % in a foreign currency (converted by the store with that day's rate).
                let foreign = roll < 20 ? ["EUR", "USD", "JPY"].filter { $0 != wallet.currency }[Int(random.next() % 2)] : nil
                let currency = foreign ?? wallet.currency
                let amount = amount(in: currency, cents: 100...20_000)
                var request = TransactionCreateRequest(kind: roll < 17 ? .income : .expense, walletId: walletIds[walletIndex], amount: amount,
                                                       currency: foreign, notes: note, date: date, tags: tags)
                if roll >= 20 && roll < 25, let minor = Int64(amount.replacingOccurrences(of: ".", with: "")), minor >= 3 {
                    // A split in two or three parts.
                    let parts = minor >= 100 && random.next() % 2 == 0 ? 3 : 2
                    var left = minor
                    var splits: [SplitPart] = []
                    for part in 0..<parts {
                        let share = part == parts - 1 ? left : max(1, left / Int64(parts - part) - Int64(random.next() % 3))
                        left -= share
                        splits.append(SplitPart(amount: Self.format(share, currency), categoryId: expenseIds[Int(random.next() % UInt64(expenseIds.count))]))
                    }
                    request.splits = splits
                    request.kind = .expense
                } else {
                    // 2 % are refunds: income in an expense category.
                    request.categoryId = expenseIds[Int(random.next() % UInt64(expenseIds.count))]
                }
                items.append(TransactionImportItem(transaction: request))
            }
        }
        return items
    }

    private mutating func amount(in currency: String, cents range: ClosedRange<UInt64>) -> String {
        let cents = range.lowerBound + random.next() % (range.upperBound - range.lowerBound + 1)
        // JPY has no minor unit: a yen amount of about the same value.
        return currency == "JPY" ? String(cents * 150 / 100) : Self.format(Int64(cents), currency)
    }

    private static func format(_ minor: Int64, _ currency: String) -> String {
        currency == "JPY" ? String(minor) : "\(minor / 100).\(String(minor % 100).leftPadded(2))"
    }

    /// What arrives in the other wallet of a transfer: roughly the day's rate (banks differ).
    private static func converted(_ amount: String, from: String, to: String, day: Int) -> String {
        let (usd, jpy) = rate(day: day)
        // Units of each currency per EUR, in ten-thousandths.
        func perEuro(_ currency: String) -> Int64 {
            switch currency {
            case "USD": Int64(usd.replacingOccurrences(of: ".", with: ""))!
            case "JPY": Int64(jpy.replacingOccurrences(of: ".", with: ""))! * 100
            default: 10_000
            }
        }
        func minorPerUnit(_ currency: String) -> Int64 { currency == "JPY" ? 1 : 100 }
        let minor = Int64(amount.replacingOccurrences(of: ".", with: ""))!
        let result = max(1, minor * perEuro(to) * minorPerUnit(to) / (perEuro(from) * minorPerUnit(from)))
        return format(result, to)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
