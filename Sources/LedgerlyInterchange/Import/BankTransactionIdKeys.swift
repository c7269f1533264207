import LedgerlyCore

/// Import keys built from the bank's own transaction id (OFX `FITID`, CAMT `AcctSvcrRef`), for
/// formats that carry one: a re-exported statement with reworded or re-padded descriptions is
/// still found as a duplicate, and two identical payments on one day stay two.
///
/// The key is `<format>:<id>#<n>`, n counting the different transactions with the same id in this
/// file (the first is `#1`): ids are unique per account by the specifications, but some banks
/// repeat one within a file, and a repeated id on another transaction must not make it a
/// "duplicate" of the first. A repeat with the same day, direction, amount, currency and text is
/// the same transaction listed twice (two overlapping statements of one account in one file), so
/// it gets the same key and the store reports it as a duplicate rather than importing it twice.
/// An id longer than `maximumIdLength` (the store takes keys up to 200 characters; OFX allows
/// 255) is replaced by its FNV-1a 64 hash, as the text fingerprint is (`BankCSVFingerprint`).
/// A transaction without an id gets the text fingerprint.
struct BankTransactionIdKeys {
    static let maximumIdLength = 160
    private let format: String
    /// Id → the transactions (as `date|kind|amount|currency|description`) seen with it, in order.
    private var seen: [String: [String]] = [:]
    private var fingerprints = BankCSVFingerprint()

    init(format: String) {
        self.format = format
    }

    /// The key for the next transaction, in file order; `id` nil (or none) for the fingerprint.
    mutating func next(id: String?, date: String, kind: TransactionKind, amount: String, currency: String, description: String) -> String {
        guard let id else { return fingerprints.next(date: date, kind: kind, amount: amount, currency: currency, description: description) }
        let transaction = [date, kind.rawValue, amount, currency, description].joined(separator: "|")
        var transactions = seen[id] ?? []
        let occurrence: Int
        if let index = transactions.firstIndex(of: transaction) {
            occurrence = index + 1
        } else {
            transactions.append(transaction)
            seen[id] = transactions
            occurrence = transactions.count
        }
        let shown = id.utf8.count <= Self.maximumIdLength ? ":" + id : "#" + String(BankCSVFingerprint.fnv1a64(id), radix: 16)
        return "\(format)\(shown)#\(occurrence)"
    }
}
