/// One journal entry before it is written: header line, comment lines, postings.
///
/// Kept as a value rather than appended to a string straight away so the writer can first check
/// that it balances at cost (`JournalPosting.balancing`) and declare any commodity or account it
/// meets for the first time.
struct JournalEntry: Sendable {
    var date: String
    var code: String?
    var description: String
    /// Each becomes a `    ; …` line under the header (hledger reads tags from them).
    var comments: [String]
    var postings: [JournalPosting]

    /// The entry followed by a blank line, as both tools expect between entries.
    var text: String {
        var text = ""
        text.reserveCapacity(64 + 96 * postings.count)
        text += date
        if let code {
            text += " ("
            text += code
            text += ")"
        }
        text += " "
        text += description
        text += "\n"
        for comment in comments {
            text += "    ; "
            text += comment
            text += "\n"
        }
        for posting in postings { posting.write(to: &text) }
        text += "\n"
        return text
    }
}
