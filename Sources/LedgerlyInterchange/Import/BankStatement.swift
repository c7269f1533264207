/// A statement read from an OFX, CAMT.053 or QIF file: its rows and what the file says about
/// itself, for the CLI to check against the wallet and to print.
public struct BankStatement: Sendable, Equatable {
    /// The account's currency as the file states it (OFX `CURDEF`, CAMT `Acct/Ccy`); nil when
    /// the format has none (QIF), and then the rows are in the wallet's currency.
    public var currency: String?
    /// The account as the file names it (OFX `ACCTID`, CAMT `Acct/Id`, QIF `!Account` `N`), for messages.
    public var account: String?
    public var rows: [BankStatementRow]
    /// What the reader noticed and left out on purpose (pending entries), one sentence each.
    public var notes: [String]
    /// How many transactions the file holds for the account read (OFX `STMTTRN`s, CAMT `Ntry`s,
    /// QIF records of its bank section), rows and left-out ones alike: a file with entries and
    /// no rows is refused by the CLI, naming why (the notes), never a quiet "nothing to import".
    public var entries: Int

    /// - Parameter entries: nil when every entry is a row (CSV).
    public init(currency: String?, account: String?, rows: [BankStatementRow], notes: [String] = [], entries: Int? = nil) {
        self.currency = currency
        self.account = account
        self.rows = rows
        self.notes = notes
        self.entries = entries ?? rows.count
    }

    /// One note for the rows a reader left out on purpose: "2 entries not booked (PDNG) left out,
    /// on lines 13, 40: import a later statement once booked".
    static func leftOutNote(_ lines: [Int], _ singular: String, _ plural: String, what: String, advice: String) -> String {
        let listed = lines.map(String.init).joined(separator: ", ")
        return "\(lines.count) \(lines.count == 1 ? singular : plural) \(what) left out, on line\(lines.count == 1 ? "" : "s") \(listed): \(advice)"
    }
}
