import LedgerlyCore

/// The duplicate-detection key of imported rows: importing the same statement twice must find
/// every row already there, while two genuinely identical rows of one statement (two coffees,
/// same day, same price) must both be imported.
///
/// The key is FNV-1a 64 (hex) of `date|kind|amount|currency|description`, with the amount in
/// its normalised form and the description trimmed, whitespace-collapsed and lower-cased (banks
/// change padding and case between exports), followed by `#n`, where n counts the rows with the
/// same hash so far in this file (the first is `#1`). FNV-1a because it is tiny, has no
/// dependency, and is stable across platforms and releases, which `Hasher` is not (it is
/// seeded per process); collisions in 64 bits between rows of one wallet are not a concern.
///
/// The limit: n counts within one file, so it names a row only relative to its file.
/// Re-importing a file, or importing a later statement that overlaps an earlier one and holds
/// all of a day's identical rows, matches as it should. But when two statements split a day's
/// identical rows between them (the first ends after one coffee, the second starts with the
/// other), the second file's coffee is `#1` too and is taken for a duplicate. Bank CSVs carry
/// no transaction id to do better; the store reports every skipped duplicate with its line, so
/// the user sees it.
struct BankCSVFingerprint {
    private var occurrences: [UInt64: Int] = [:]

    /// The key for the next row; call it once per row, in file order. `description` is the
    /// row's whitespace-collapsed description, as `BankCSVImport` builds it.
    mutating func next(date: String, kind: TransactionKind, amount: String, currency: String, description: String) -> String {
        var hash = Self.offsetBasis
        for part in [date, kind.rawValue, amount, currency] {
            Self.mix(part, into: &hash)
            Self.mix("|", into: &hash)
        }
        Self.mix(description.lowercased(), into: &hash)
        let occurrence = (occurrences[hash] ?? 0) + 1
        occurrences[hash] = occurrence
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "#\(occurrence)"
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    private static func mix(_ text: String, into hash: inout UInt64) {
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
    }

    static func fnv1a64(_ text: String) -> UInt64 {
        var hash = offsetBasis
        mix(text, into: &hash)
        return hash
    }
}
