/// One journal entry before it is written: what it says, in parts, and its postings.
///
/// Kept as a value rather than appended to a string straight away so the writer can first check
/// that it balances at cost (`JournalPosting.balancing`), declare any commodity, account or tag it
/// meets for the first time, and write it in the dialect asked for: the parts (Ledgerly's ids,
/// tags, the notes) are written as comments for hledger and ledger but as metadata, tags and a
/// narration for beancount (`JournalDialect`).
struct JournalEntry: Sendable {
    var date: String
    var code: String?
    /// One line: the first line of the notes (`JournalSyntax.description`), or a text of the
    /// writer's own ("Opening balance: Checking").
    var description: String
    /// The notes as the user wrote them, whole.
    var notes: String?
    /// Whether `description` is the notes' first line (a transaction) or a text of its own (a
    /// valuation, whose notes come after it).
    var describedByNotes: Bool
    /// Ledgerly's ids: `ledgerly-id` → "12".
    var metadata: [(key: String, value: String)]
    /// Remarks of the writer's own ("transfer leg without its counterpart in this export").
    var remarks: [String] = []
    /// The user's tags, as stored.
    var tags: [String] = []
    var postings: [JournalPosting]

    init(date: String, code: String?, description: String, notes: String? = nil, describedByNotes: Bool = false,
         metadata: [(key: String, value: String)], remarks: [String] = [], tags: [String] = [], postings: [JournalPosting]) {
        self.date = date
        self.code = code
        self.description = description
        self.notes = notes
        self.describedByNotes = describedByNotes
        self.metadata = metadata
        self.remarks = remarks
        self.tags = tags
        self.postings = postings
    }

    /// The comment lines hledger and ledger get under the header: the ids on one line, the
    /// remarks, the tags in hledger's syntax, then the notes' further lines.
    var ledgerComments: [String] {
        var comments: [String] = []
        if !metadata.isEmpty { comments.append(metadata.map { "\($0.key):\($0.value)" }.joined(separator: ", ")) }
        comments += remarks
        var names: [String] = []
        for tag in tags {
            if let name = JournalSyntax.tag(tag), !names.contains(name) { names.append(name) }
        }
        if !names.isEmpty { comments.append(names.map { $0 + ":" }.joined(separator: ", ")) }
        return comments + JournalSyntax.noteLines(notes, all: !describedByNotes)
    }

    /// The entry in hledger/ledger syntax with `comments` (its `ledgerComments`, made once by the
    /// caller, who also declares the tags in them), followed by a blank line as both tools expect.
    func ledgerText(comments: [String]) -> String {
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
        for posting in postings { posting.writeLedger(to: &text) }
        text += "\n"
        return text
    }
}
