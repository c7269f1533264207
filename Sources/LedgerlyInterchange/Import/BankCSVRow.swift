import LedgerlyCore

/// One bank-statement row, read, checked and normalised, ready to become a transaction.
///
/// Amounts stay decimal strings (not `Money`) so the row maps one-to-one onto the protocol's
/// request types, which carry amounts as text.
public struct BankCSVRow: Codable, Hashable, Sendable {
    /// The physical line the row starts on (header = line 1 when nothing is skipped).
    public var line: Int
    /// "YYYY-MM-DD".
    public var date: String
    public var kind: TransactionKind
    /// Positive, with exactly the currency's number of decimals ("12.50" EUR, "1200" JPY).
    public var amount: String
    /// Upper-case code.
    public var currency: String
    /// The description cells joined with spaces, whitespace runs collapsed.
    public var description: String
    /// From the first matching rule with a category: a `:`-separated path, not yet an id.
    public var categoryPath: String?
    public var tags: [String]
    /// Duplicate-detection key; see `BankCSVFingerprint`.
    public var fingerprint: String

    public init(line: Int, date: String, kind: TransactionKind, amount: String, currency: String, description: String, categoryPath: String?, tags: [String], fingerprint: String) {
        self.line = line
        self.date = date
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.description = description
        self.categoryPath = categoryPath
        self.tags = tags
        self.fingerprint = fingerprint
    }
}
