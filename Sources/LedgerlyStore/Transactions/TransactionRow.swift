import GRDB
import LedgerlyProtocol

/// A row of `transactions`, read with its wallet's currency (`wallet_currency`, joined): the one
/// type that names the table's columns for reading, and, with its tags and splits, the one
/// place a stored transaction becomes its wire record (`TransactionHandlers.records`).
///
/// Writes stay in `TransactionWriter`'s cached INSERT, which an import of a million
/// transactions runs once per row: a record's generic persistence would cost more there.
struct TransactionRow: FetchableRecord, Sendable {
    static let databaseTableName = "transactions"

    enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let walletId = Column("wallet_id")
        static let amountMinor = Column("amount_minor")
        static let currency = Column("currency")
        static let walletAmountMinor = Column("wallet_amount_minor")
        static let baseAmountMinor = Column("base_amount_minor")
        static let categoryId = Column("category_id")
        static let notes = Column("notes")
        static let date = Column("date")
        static let attachmentPath = Column("attachment_path")
        static let counterpartyWalletId = Column("counterparty_wallet_id")
        static let counterpartyTransactionId = Column("counterparty_tx_id")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
        static let conversion = Column("conversion")
        static let baseConversion = Column("base_conversion")
        static let importKey = Column("import_key")
        static let importId = Column("import_id")
        /// Not a column of the table: the wallet's currency, joined by every query that reads rows.
        static let walletCurrency = Column("wallet_currency")
    }

    var id: Int64
    var kind: String
    var walletId: Int64
    var amountMinor: Int64
    var currency: String
    /// Signed: the transaction's effect on its wallet's balance, in the wallet's currency.
    var walletAmountMinor: Int64
    /// Signed, in the base currency; nil while no rate covers it (the backfill fills it).
    var baseAmountMinor: Int64?
    var categoryId: Int64?
    var notes: String?
    var date: String
    var attachmentPath: String?
    var counterpartyWalletId: Int64?
    var counterpartyTransactionId: Int64?
    var createdAt: String
    var updatedAt: String
    /// The kept rate snapshots, as JSON text.
    var conversion: String?
    var baseConversion: String?
    var importKey: String?
    var importId: String?
    var walletCurrency: String

    init(row: Row) {
        id = row[Columns.id]
        kind = row[Columns.kind]
        walletId = row[Columns.walletId]
        amountMinor = row[Columns.amountMinor]
        currency = row[Columns.currency]
        walletAmountMinor = row[Columns.walletAmountMinor]
        baseAmountMinor = row[Columns.baseAmountMinor]
        categoryId = row[Columns.categoryId]
        notes = row[Columns.notes]
        date = row[Columns.date]
        attachmentPath = row[Columns.attachmentPath]
        counterpartyWalletId = row[Columns.counterpartyWalletId]
        counterpartyTransactionId = row[Columns.counterpartyTransactionId]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
        conversion = row[Columns.conversion]
        baseConversion = row[Columns.baseConversion]
        importKey = row[Columns.importKey]
        importId = row[Columns.importId]
        walletCurrency = row[Columns.walletCurrency]
    }
}
