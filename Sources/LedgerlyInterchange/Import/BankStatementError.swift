/// Why a bank statement (CSV, OFX, CAMT.053, QIF), a CSV mapping or a rule was refused.
///
/// One struct rather than an enum of cases because every caller does the same two things with
/// it: print it, and point the user at `line`. The message is written for a terminal and names
/// the column and the offending text, so a user can fix a 100,000-line file without a debugger.
public struct BankStatementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based physical line of the file (as an editor numbers it), or nil when the problem
    /// is not tied to one line (the mapping, the default currency). For the XML formats it is
    /// the line the element at fault starts on, and the message names the element's path.
    public let line: Int?
    /// What is wrong, without the "line N: " prefix.
    public let message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String {
        guard let line else { return message }
        return "line \(line): \(message)"
    }
}
