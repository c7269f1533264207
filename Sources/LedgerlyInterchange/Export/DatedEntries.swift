import LedgerlyCore

/// Journal entries that are not transactions (investment trades, valuations, liability
/// balances), held until the transactions, written in date order, reach their date.
///
/// Why: hledger and ledger sort by date themselves, but `hledger check ordereddates` (and a
/// reader skimming the file) expects the dates never to go back. The transactions stream from
/// the store in (date, id) order; these few are known up front, so they are merged in as the
/// stream passes their dates. Their directives are written before any entry, since a
/// transaction earlier in the file may use the same account or tag.
public struct DatedEntries: Sendable {
    /// Directives and comments to write once, after the header and before any entry.
    public private(set) var directives = ""
    private var entries: [(date: String, order: Int, text: String)] = []
    private var sorted = true
    private var written = 0

    public init() {}

    /// The earliest entry's date, for opening balances dated no later than everything (a comment
    /// standing for an entry left out may carry a date that is no date: not counted).
    public var firstDate: String? { entries.map(\.date).filter { LedgerDate($0) != nil }.min() }

    mutating func addDirectives(_ text: String) { directives += text }

    /// An entry (or a comment standing for one) dated `date`; entries of one date keep the order
    /// they were added in.
    mutating func add(date: String, text: String) {
        guard !text.isEmpty else { return }
        entries.append((date, entries.count, text))
        sorted = false
    }

    /// The entries dated before `date` not written yet: write them before a transaction of `date`.
    public mutating func before(_ date: String) -> String {
        sortIfNeeded()
        var text = ""
        while written < entries.count, entries[written].date < date {
            text += entries[written].text
            written += 1
        }
        return text
    }

    /// The entries not written yet: write them after the last transaction.
    public mutating func rest() -> String {
        sortIfNeeded()
        let text = entries[written...].map(\.text).joined()
        written = entries.count
        return text
    }

    private mutating func sortIfNeeded() {
        guard !sorted else { return }
        let pending = entries[written...].sorted { ($0.date, $0.order) < ($1.date, $1.order) }
        entries.replaceSubrange(written..., with: pending)
        sorted = true
    }
}
