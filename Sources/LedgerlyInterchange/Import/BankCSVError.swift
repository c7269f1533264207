/// Why a bank CSV or its mapping was refused.
///
/// One struct rather than an enum of cases because every caller does the same two things with
/// it: print it, and point the user at `line`. The message is written for a terminal and names
/// the column and the offending text, so a user can fix a 100,000-line file without a debugger.
public struct BankCSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based physical line of the file (as an editor numbers it), or nil when the problem
    /// is not tied to one line (the mapping, the default currency).
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
