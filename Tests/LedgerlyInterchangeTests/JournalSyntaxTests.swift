@testable import LedgerlyInterchange
import Testing

/// `JournalSyntax`'s note lines and tag reading have a byte-level path for the common case (a
/// one-line printable ASCII note, a comment without ':'); these pin what both paths give (D352).
@Suite struct JournalSyntaxTests {
    @Test(arguments: [
        ("Coffee", false, [String]()),
        ("Coffee", true, [".. Coffee"]),
        ("  Coffee  ", true, ["..   Coffee"]),
        ("   ", true, [String]()),
        ("", true, [String]()),
        ("A [2026] note", true, [".. A [ 2026] note"]),
        ("Tab\tnote", true, [".. Tab\tnote"]),
        ("first\nsecond  ", false, [".. second"]),
        ("first\nsecond", true, [".. first", ".. second"]),
        ("Café \u{7}bell", true, [".. Café  bell"]),
    ])
    func noteLinesKeepTheTextAndDropOnlyWhatTheToolsCannotRead(notes: String, all: Bool, expected: [String]) {
        #expect(JournalSyntax.noteLines(notes, all: all) == expected)
    }

    @Test func tagsNeedAColon() {
        #expect(JournalSyntax.tagsRead(inComment: "Payee 42, weekly") == [])
        #expect(JournalSyntax.tagsRead(inComment: "weekly:, work:") == ["weekly", "work"])
        #expect(JournalSyntax.tagsRead(inComment: "note :a:b: here") == ["a", "b"])
    }
}
