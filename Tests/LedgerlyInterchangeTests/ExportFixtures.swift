import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol

/// Records built by hand for the export tests: short constructors with the fields the writers
/// read, everything else filled with fixed values.
enum ExportFixtures {
    static func wallet(_ id: Int64, _ name: String, _ currency: String, start: String = "0") -> WalletRecord {
        WalletRecord(id: id, name: name, icon: nil, currency: currency, type: .bank, startingBalance: start, balance: start,
                     institution: nil, sortOrder: Int(id), includeInNetWorth: true, archived: false,
                     createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-01T00:00:00Z")
    }

    static func category(_ id: Int64, _ name: String, _ kind: CategoryKind, parent: Int64? = nil, path: String? = nil) -> CategoryRecord {
        CategoryRecord(id: id, name: name, kind: kind, parentId: parent, path: path ?? name, icon: nil, color: nil,
                       budgetingEnabled: true, sortOrder: Int(id))
    }

    /// A transaction; `walletAmount` defaults to `amount`, `baseCurrency` to EUR when a base amount is given.
    static func transaction(
        _ id: Int64, _ kind: TransactionKind, wallet: Int64, _ amount: String, _ currency: String,
        walletAmount: String? = nil, base: String? = nil, baseCurrency: String? = "EUR",
        category: Int64? = nil, splits: [SplitPart] = [], notes: String? = nil, tags: [String] = [],
        date: String = "2024-03-01", transfer: TransferLink? = nil
    ) -> TransactionRecord {
        TransactionRecord(id: id, kind: kind, walletId: wallet, amount: amount, currency: currency, categoryId: category,
                          notes: notes, date: date, tags: tags, attachmentPath: nil, transfer: transfer, splits: splits,
                          walletAmount: walletAmount ?? amount, baseAmount: base, baseCurrency: baseCurrency,
                          conversion: nil, baseConversion: nil, createdAt: "2024-03-01T00:00:00Z", updatedAt: "2024-03-01T00:00:00Z")
    }

    /// Both legs of a transfer (outgoing expense leg `id`, incoming income leg `id + 1`).
    static func transfer(
        _ id: Int64, from: Int64, _ sent: String, _ sentCurrency: String, to: Int64, _ received: String, _ receivedCurrency: String,
        base: String?, notes: String? = nil, date: String = "2024-03-05"
    ) -> (outgoing: TransactionRecord, incoming: TransactionRecord) {
        // The store gives both legs the same base amount: the base-currency leg's own amount if any.
        let legBase = base == nil ? nil : sentCurrency == "EUR" ? sent : receivedCurrency == "EUR" ? received : base
        let outgoing = transaction(id, .expense, wallet: from, sent, sentCurrency, base: legBase, notes: notes, date: date,
                                   transfer: TransferLink(counterpartyWalletId: to, counterpartyTransactionId: id + 1))
        let incoming = transaction(id + 1, .income, wallet: to, received, receivedCurrency, base: legBase, notes: notes, date: date,
                                   transfer: TransferLink(counterpartyWalletId: from, counterpartyTransactionId: id))
        return (outgoing, incoming)
    }

    static let wallets = [
        wallet(1, "Checking", "EUR", start: "1000.00"),
        wallet(2, "US Card", "USD", start: "-25.50"),
        wallet(3, "Tokyo Cash", "JPY", start: "50000"),
        wallet(4, "Savings: Joint  Account", "EUR"),
    ]

    static let categories = [
        category(10, "Food", .expense),
        category(11, "Groceries", .expense, parent: 10, path: "Food/Groceries"),
        category(12, "Restaurants", .expense, parent: 10, path: "Food/Restaurants"),
        category(13, "Salary", .income),
        category(14, "Home: Garden", .expense),
        category(15, "Transport", .expense),
        category(16, "Rent/Mortgage", .expense),
        category(17, "Interest", .income, parent: 13, path: "Salary/Interest"),
    ]

    static func journalWriter(dialect: JournalDialect = .ledger) -> JournalWriter {
        JournalWriter(baseCurrency: "EUR", wallets: wallets, categories: categories, dialect: dialect)
    }

    /// Collapses the alignment padding (two or more spaces inside a line) to exactly two spaces, so
    /// expected entries can be written without counting columns.
    static func squeezed(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }
            var rest = ""
            var spaces = 0
            for character in line.dropFirst(indent.count) {
                if character == " " {
                    spaces += 1
                } else {
                    rest += spaces >= 2 ? "  " : String(repeating: " ", count: spaces)
                    spaces = 0
                    rest.append(character)
                }
            }
            return String(indent) + rest
        }.joined(separator: "\n")
    }
}
