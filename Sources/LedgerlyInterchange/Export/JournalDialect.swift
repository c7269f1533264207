/// The plain-text accounting syntax an export is written in. Both carry the same entries and
/// amounts (`JournalWriter` decides those); only the spelling differs.
public enum JournalDialect: Sendable {
    /// hledger's journal, which ledger reads too: `export journal`.
    case ledger
    /// beancount's: `export beancount`, for `bean-check` and Fava.
    case beancount
}
