import LedgerlyCore
import LedgerlyProtocol

/// The journal account of every wallet and category, fixed once when the writer is made.
///
/// Why fixed up front and made unique: hledger adds up everything posted to one account name, so
/// two wallets that sanitise to the same name ("Cash" in EUR and "Cash" in USD, or "a:b" and
/// "a-b") would show one merged balance. The second of them (by id) gets " #<id>" appended, and
/// the names the writer itself uses are reserved so no wallet or category lands on them.
struct JournalAccounts: Sendable {
    static let uncategorizedExpense = "expenses:uncategorized"
    static let uncategorizedIncome = "income:uncategorized"
    static let openingBalances = "equity:opening balances"
    /// Absorbs what does not balance at cost after all: legs of one transfer with different base
    /// amounts, or inconsistent records. Stays empty for what the store writes.
    static let conversionDifferences = "equity:conversion differences"
    /// The other side of a transfer leg whose counterpart was not in the export.
    static let unmatchedTransfers = "equity:unmatched transfers"
    static let reserved = [uncategorizedExpense, uncategorizedIncome, openingBalances, conversionDifferences, unmatchedTransfers]

    let wallets: [Int64: String]
    let categories: [Int64: String]
    /// Wallet accounts, then category accounts, in id order: what the header declares.
    let declarationOrder: [String]

    init(wallets walletRecords: [WalletRecord], categories categoryRecords: [CategoryRecord]) {
        var taken = Set(Self.reserved)
        var order: [String] = []
        var wallets: [Int64: String] = [:]
        for wallet in walletRecords.sorted(by: { $0.id < $1.id }) where wallets[wallet.id] == nil {
            let account = Self.unique("assets:" + JournalSyntax.accountPart(wallet.name), id: wallet.id, taken: &taken)
            wallets[wallet.id] = account
            order.append(account)
        }

        // A category's levels are its parent's levels (already made unique) plus its own name, so
        // a child of "Food #7" sits under "Food #7". Parents are resolved before their children.
        let chains = CategoryNameChains(categoryRecords)
        var levels: [Int64: [String]] = [:]
        var categories: [Int64: String] = [:]
        func resolve(_ record: CategoryRecord, visiting: Set<Int64>) -> [String] {
            if let known = levels[record.id] { return known }
            var prefix: [String]
            if let parentId = record.parentId, let parent = chains.categories[parentId], !visiting.contains(parentId) {
                prefix = resolve(parent, visiting: visiting.union([record.id]))
            } else {
                prefix = (chains.names(record.id) ?? [record.name]).dropLast().map(JournalSyntax.accountPart)
            }
            let root = record.kind == .income ? "income" : "expenses"
            let name = JournalSyntax.accountPart(record.name)
            var account = ([root] + prefix + [name]).joined(separator: ":")
            if taken.contains(account) {
                account = Self.unique(account, id: record.id, taken: &taken)
                prefix.append(String(account.split(separator: ":").last ?? Substring(name)))
            } else {
                taken.insert(account)
                prefix.append(name)
            }
            levels[record.id] = prefix
            categories[record.id] = account
            order.append(account)
            return prefix
        }
        for record in categoryRecords.sorted(by: { $0.id < $1.id }) where levels[record.id] == nil {
            _ = resolve(record, visiting: [])
        }
        self.wallets = wallets
        self.categories = categories
        self.declarationOrder = order
    }

    /// `base`, or `base #id` (then `base #id-2`, …) when that is taken; the result is marked taken.
    private static func unique(_ base: String, id: Int64, taken: inout Set<String>) -> String {
        var candidate = base
        var attempt = 1
        while taken.contains(candidate) {
            candidate = attempt == 1 ? "\(base) #\(id)" : "\(base) #\(id)-\(attempt)"
            attempt += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
