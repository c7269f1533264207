import LedgerlyCore

/// One bank-statement row, read, checked and normalised, ready to become a transaction: what
/// every statement format (CSV, OFX/QFX, CAMT.053, QIF) is read into, so the CLI imports them
/// all the same way (rules, duplicates, dry run, undo).
///
/// Amounts stay decimal strings (not `Money`) so the row maps one-to-one onto the protocol's
/// request types, which carry amounts as text.
public struct BankStatementRow: Codable, Hashable, Sendable {
    /// The physical line the row starts on (header = line 1 when nothing is skipped; the line of
    /// the `<STMTTRN>`, `<Ntry>`/`<TxDtls>` or first field of a QIF record).
    public var line: Int
    /// "YYYY-MM-DD".
    public var date: String
    public var kind: TransactionKind
    /// Positive, with exactly the currency's number of decimals ("12.50" EUR, "1200" JPY).
    public var amount: String
    /// Upper-case code.
    public var currency: String
    /// The description the format gives (CSV: its description cells; OFX: name/payee and memo;
    /// CAMT: the counterparty and remittance text; QIF: payee and memo), joined with spaces,
    /// whitespace runs collapsed.
    public var description: String
    /// From the first matching rule with a category: a `:`-separated path, not yet an id.
    public var categoryPath: String?
    public var tags: [String]
    /// The duplicate-detection key: the text fingerprint (`BankCSVFingerprint`), or one built
    /// from the bank's own transaction id where the format has one (OFX `FITID`, CAMT
    /// `AcctSvcrRef`).
    public var importKey: String
    /// A category the file itself names (QIF `L`), exactly as written; the CLI uses it only when
    /// no rule set `categoryPath` (docs/reports-import-export.md, "Bank formats").
    public var sourceCategory: String?
    /// A split transaction's parts as the file gives them (QIF `S`/`E`/`$`); empty otherwise.
    public var splits: [BankStatementSplit]

    public init(
        line: Int, date: String, kind: TransactionKind, amount: String, currency: String, description: String, categoryPath: String?, tags: [String],
        importKey: String, sourceCategory: String? = nil, splits: [BankStatementSplit] = []
    ) {
        self.line = line
        self.date = date
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.description = description
        self.categoryPath = categoryPath
        self.tags = tags
        self.importKey = importKey
        self.sourceCategory = sourceCategory
        self.splits = splits
    }
}

/// One part of a split row (QIF `S` category, `E` memo, `$` amount).
public struct BankStatementSplit: Codable, Hashable, Sendable {
    /// The line of its first field (its `S`, or an `E` written before it).
    public var line: Int
    /// As written (`Food:Groceries`); empty when the part names none.
    public var category: String
    public var memo: String
    /// Signed as in the file, in the row's currency with its decimals ("-12.50").
    public var amount: String

    public init(line: Int, category: String, memo: String, amount: String) {
        self.line = line
        self.category = category
        self.memo = memo
        self.amount = amount
    }
}
