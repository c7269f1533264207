import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `transactions`, read with its wallet's currency (`wallet_currency`, joined): the one
/// type that names the table's columns for reading, and, with its tags and splits, the one
/// place a stored transaction becomes its wire record (`TransactionHandlers.records`).
///
/// Every statement over the table, its split parts and its tags is in `TransactionStore.swift`
/// (D454). Writes are the named, cached INSERTs there, which an import of a million transactions
/// runs once per row: a record's generic persistence would cost more there (D455).
struct TransactionRow: FetchableRecord, Sendable {
    static let databaseTableName = "transactions"

    /// What every query that reads these rows selects, from `transactions t` joined with
    /// `selectionJoins`: the row, the text of its two rate snapshots (stored once each in
    /// `conversion_snapshots` and referred to by id, D372) and its wallet's currency.
    static let selection = "t.*, sc.snapshot AS conversion, sb.snapshot AS base_conversion, w.currency AS wallet_currency"
    static let selectionJoins = """
        JOIN wallets w ON w.id = t.wallet_id \
        LEFT JOIN conversion_snapshots sc ON sc.id = t.conversion_id LEFT JOIN conversion_snapshots sb ON sb.id = t.base_conversion_id
        """

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
        /// Not columns of the table: the snapshots' text, joined (`selection`).
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
        self.init(row: row, at: Positions(row))
    }

    /// Reads by position: rows of one query share their columns' places, which `Positions` finds
    /// once for all of them.
    init(row: Row, at place: Positions) {
        id = row[place.id]
        kind = row[place.kind]
        walletId = row[place.walletId]
        amountMinor = row[place.amountMinor]
        currency = row[place.currency]
        walletAmountMinor = row[place.walletAmountMinor]
        baseAmountMinor = row[place.baseAmountMinor]
        categoryId = row[place.categoryId]
        notes = row[place.notes]
        date = row[place.date]
        attachmentPath = row[place.attachmentPath]
        counterpartyWalletId = row[place.counterpartyWalletId]
        counterpartyTransactionId = row[place.counterpartyTransactionId]
        createdAt = row[place.createdAt]
        updatedAt = row[place.updatedAt]
        conversion = row[place.conversion]
        baseConversion = row[place.baseConversion]
        importKey = row[place.importKey]
        importId = row[place.importId]
        walletCurrency = row[place.walletCurrency]
    }

    /// The wire record of this row, given its tags and split parts (`tagsAndSplits`), the base
    /// currency, and `snapshot`, which decodes a kept rate snapshot's text (callers share one
    /// decoding per distinct text across a page). `tx.get`, `tx.list` and `tx.export` all build
    /// their records here, so they agree member for member.
    func record(tags: [String], splits: [SplitPart], base: String?, snapshot: (String?) -> RateSnapshot?) -> TransactionRecord {
        TransactionRecord(
            id: id, kind: TransactionKind(rawValue: kind) ?? .expense, walletId: walletId,
            amount: InputRules.format(amountMinor, currency), currency: currency,
            categoryId: categoryId, notes: notes, date: date, tags: tags,
            attachmentPath: attachmentPath,
            transfer: counterpartyWalletId.flatMap { wallet in
                counterpartyTransactionId.map { TransferLink(counterpartyWalletId: wallet, counterpartyTransactionId: $0) }
            },
            splits: splits,
            walletAmount: InputRules.format(Int64(walletAmountMinor.magnitude), walletCurrency),
            baseAmount: base.flatMap { base in baseAmountMinor.map { InputRules.format(Int64($0.magnitude), base) } }, baseCurrency: base,
            conversion: snapshot(conversion), baseConversion: snapshot(baseConversion),
            createdAt: createdAt, updatedAt: updatedAt, importKey: importKey, importId: importId)
    }

    /// The rows a statement yields, read as the statement steps. Why not `fetchAll`: a
    /// fetched row is a copy of every column as a `DatabaseValue`, and reading a column back from
    /// the copy cost about 1,100 instructions against a few dozen straight from the statement:
    /// 1.5 M of a `tx.list` page of 50 (D386).
    static func rows(of statement: Statement, arguments: StatementArguments) throws -> [TransactionRow] {
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        var rows: [TransactionRow] = []
        var positions: Positions?
        while let row = try cursor.next() {
            let place = positions ?? Positions(row)
            positions = place
            rows.append(TransactionRow(row: row, at: place))
        }
        return rows
    }

    /// Where each column is among a query's columns. Why: a fetched (copied) row finds a column
    /// by name by lowercasing each of its column names in turn, so reading twenty columns by name
    /// lowercased about two hundred strings a row, most of what a `tx.list` page of 50 cost.
    struct Positions {
        let id, kind, walletId, amountMinor, currency, walletAmountMinor, baseAmountMinor, categoryId, notes, date: Int
        let attachmentPath, counterpartyWalletId, counterpartyTransactionId, createdAt, updatedAt, conversion, baseConversion: Int
        let importKey, importId, walletCurrency: Int

        /// The places in the export's select list (`exportSelection`), which names every column
        /// in the order the members are declared here.
        static let exportOrder = Positions(
            id: 0, kind: 1, walletId: 2, amountMinor: 3, currency: 4, walletAmountMinor: 5, baseAmountMinor: 6, categoryId: 7, notes: 8, date: 9,
            attachmentPath: 10, counterpartyWalletId: 11, counterpartyTransactionId: 12, createdAt: 13, updatedAt: 14, conversion: 15, baseConversion: 16,
            importKey: 17, importId: 18, walletCurrency: 19)

        private init(id: Int, kind: Int, walletId: Int, amountMinor: Int, currency: Int, walletAmountMinor: Int, baseAmountMinor: Int, categoryId: Int, notes: Int, date: Int,
                     attachmentPath: Int, counterpartyWalletId: Int, counterpartyTransactionId: Int, createdAt: Int, updatedAt: Int, conversion: Int, baseConversion: Int,
                     importKey: Int, importId: Int, walletCurrency: Int) {
            self.id = id
            self.kind = kind
            self.walletId = walletId
            self.amountMinor = amountMinor
            self.currency = currency
            self.walletAmountMinor = walletAmountMinor
            self.baseAmountMinor = baseAmountMinor
            self.categoryId = categoryId
            self.notes = notes
            self.date = date
            self.attachmentPath = attachmentPath
            self.counterpartyWalletId = counterpartyWalletId
            self.counterpartyTransactionId = counterpartyTransactionId
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.conversion = conversion
            self.baseConversion = baseConversion
            self.importKey = importKey
            self.importId = importId
            self.walletCurrency = walletCurrency
        }

        /// Every query that reads these rows selects all of the table's columns and the
        /// wallet's currency; one missing is a mistake in that query.
        init(_ row: Row) {
            // By name regardless of case, the first of that name, as a look-up by name finds it.
            let names: [String] = row.columnNames.map { $0.lowercased() }
            func place(_ column: Column) -> Int {
                guard let index = names.firstIndex(of: column.name.lowercased()) else { preconditionFailure("a transactions query lacks \(column.name)") }
                return index
            }
            id = place(Columns.id)
            kind = place(Columns.kind)
            walletId = place(Columns.walletId)
            amountMinor = place(Columns.amountMinor)
            currency = place(Columns.currency)
            walletAmountMinor = place(Columns.walletAmountMinor)
            baseAmountMinor = place(Columns.baseAmountMinor)
            categoryId = place(Columns.categoryId)
            notes = place(Columns.notes)
            date = place(Columns.date)
            attachmentPath = place(Columns.attachmentPath)
            counterpartyWalletId = place(Columns.counterpartyWalletId)
            counterpartyTransactionId = place(Columns.counterpartyTransactionId)
            createdAt = place(Columns.createdAt)
            updatedAt = place(Columns.updatedAt)
            conversion = place(Columns.conversion)
            baseConversion = place(Columns.baseConversion)
            importKey = place(Columns.importKey)
            importId = place(Columns.importId)
            walletCurrency = place(Columns.walletCurrency)
        }
    }
}
