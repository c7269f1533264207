import LedgerlyCore

/// An entry in beancount's syntax: the same postings as the hledger journal, with Ledgerly's
/// ids as metadata, the tags as `#tags`, and the notes whole as the narration (notes of more than
/// 64 lines, beancount's limit for one string, go on in `ledgerly-notes-2`, `-3`… metadata).
extension JournalEntry {
    /// The entry, followed by a blank line. Names go through `names`, which keeps them unique.
    func beancountText(names: inout BeancountNames) -> String {
        var text = date + " * "
        let noteParts = BeancountSyntax.stringParts(notes ?? "")
        text += BeancountSyntax.string(describedByNotes ? noteParts[0] : description)
        var seen: [String] = []
        for tag in tags {
            if let name = BeancountSyntax.tag(tag), !seen.contains(name) {
                seen.append(name)
                text += " #" + name
            }
        }
        text += "\n"
        for item in metadata { text += "  \(item.key): \(BeancountSyntax.string(item.value))\n" }
        if describedByNotes {
            for (index, part) in noteParts.enumerated().dropFirst() { text += "  ledgerly-notes-\(index + 1): \(BeancountSyntax.string(part))\n" }
        } else if let notes, !notes.isEmpty {
            for (index, part) in noteParts.enumerated() {
                text += "  ledgerly-notes\(index == 0 ? "" : "-\(index + 1)"): \(BeancountSyntax.string(part))\n"
            }
        }
        for remark in remarks { text += "  ; \(JournalSyntax.commentText(remark))\n" }
        for posting in postings { posting.writeBeancount(to: &text, names: &names) }
        return text + "\n"
    }
}

extension JournalPosting {
    /// The posting's line, aligned as in the hledger journal; its own date as posting metadata
    /// `ledgerly-date` (beancount has no posting dates: the entry's date is when both legs were
    /// done, as in the journal).
    func writeBeancount(to text: inout String, names: inout BeancountNames) {
        let account = names.account(self.account)
        text += "  " + account + Self.padding(after: account) + "  "
        text += numberText + " " + names.commodity(amount.commodity)
        if let cost {
            text += " @@ " + Money.format(minorUnits: cost.minorUnits < 0 ? -cost.minorUnits : cost.minorUnits, exponent: cost.exponent)
            text += " " + names.commodity(cost.commodity)
        }
        if let comment, !comment.isEmpty { text += "  ; " + JournalSyntax.commentText(comment) }
        text += "\n"
        if let date { text += "    ledgerly-date: \(date)\n" }
    }
}
