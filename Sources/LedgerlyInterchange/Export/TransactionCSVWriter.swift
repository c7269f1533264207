import LedgerlyCore
import LedgerlyProtocol

/// Writes transactions as CSV (RFC 4180), one row at a time, for spreadsheets and scripts.
///
/// Why amounts stay as the store's decimal strings: a spreadsheet or script reading the file then
/// gets exactly the stored amounts with their currency's decimals, and no figure goes through a
/// floating-point conversion here. Amounts are positive; `kind` gives the direction, as in Ledgerly.
///
/// Why names rather than ids for wallet and categories: the file is meant to be read by people and
/// by other tools that do not know Ledgerly's ids. Category paths are Ledgerly's own
/// ("Food/Groceries", as the CLI takes them); names are written as they are, not sanitised.
///
/// Rows end with CRLF, as RFC 4180 specifies; fields holding ',', '"', CR or LF are quoted, with
/// '"' doubled.
public struct TransactionCSVWriter: Sendable {
    public static let columns = [
        "id", "date", "kind", "wallet", "amount", "currency", "wallet_amount", "wallet_currency",
        "base_amount", "base_currency", "category", "notes", "tags", "transfer_id", "splits",
    ]

    private let wallets: [Int64: WalletRecord]
    private let chains: CategoryNameChains

    public init(wallets: [WalletRecord], categories: [CategoryRecord]) {
        var byId: [Int64: WalletRecord] = [:]
        for wallet in wallets where byId[wallet.id] == nil { byId[wallet.id] = wallet }
        self.wallets = byId
        self.chains = CategoryNameChains(categories)
    }

    /// The header row, CRLF-terminated.
    public func header() -> String { Self.line(Self.columns) }

    /// One transaction's row, CRLF-terminated. `base_amount` is empty while the store had no rate; `transfer_id` is the other leg's id; `splits` is `Category path=amount;…` (in the
    /// transaction's currency), empty for a transaction that is not split.
    public func row(for transaction: TransactionRecord) -> String {
        let wallet = wallets[transaction.walletId]
        let splits = transaction.splits.map { "\(categoryPath($0.categoryId))=\($0.amount)" }.joined(separator: ";")
        return Self.line([
            String(transaction.id),
            transaction.date,
            transaction.kind.rawValue,
            wallet?.name ?? "#\(transaction.walletId)",
            transaction.amount,
            transaction.currency,
            transaction.walletAmount,
            wallet?.currency ?? "",
            transaction.baseAmount ?? "",
            transaction.baseCurrency ?? "",
            transaction.categoryId.map(categoryPath) ?? "",
            transaction.notes ?? "",
            transaction.tags.joined(separator: ";"),
            transaction.transfer.map { String($0.counterpartyTransactionId) } ?? "",
            splits,
        ])
    }

    /// "Parent/Child"; "#<id>" for a category that was not given.
    public func categoryPath(_ categoryId: Int64) -> String {
        chains.names(categoryId)?.joined(separator: "/") ?? "#\(categoryId)"
    }

    private static func line(_ fields: [String]) -> String { CSVField.line(fields) }
}
