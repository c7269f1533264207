/// Import keys built from the bank's own transaction id (OFX `FITID`, CAMT `AcctSvcrRef`), for
/// formats that carry one: a re-exported statement with reworded or re-padded descriptions is
/// still found as a duplicate, and two identical payments on one day stay two.
///
/// The key is `<format>:<id>#<n>`, n counting the rows with the same id in this file (the first
/// is `#1`): ids are unique per account by the specifications, but some banks repeat one within a
/// file, and a repeated id must not make the second row a "duplicate" of the first. An id longer
/// than `maximumIdLength` (the store takes keys up to 200 characters; OFX allows 255) is replaced
/// by its FNV-1a 64 hash, as the text fingerprint is (`BankCSVFingerprint`).
struct BankTransactionIdKeys {
    static let maximumIdLength = 160
    private let format: String
    private var occurrences: [String: Int] = [:]

    init(format: String) {
        self.format = format
    }

    mutating func next(id: String) -> String {
        let occurrence = (occurrences[id] ?? 0) + 1
        occurrences[id] = occurrence
        let shown = id.utf8.count <= Self.maximumIdLength ? ":" + id : "#" + String(BankCSVFingerprint.fnv1a64(id), radix: 16)
        return "\(format)\(shown)#\(occurrence)"
    }
}
