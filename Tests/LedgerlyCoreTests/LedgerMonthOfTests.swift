import LedgerlyCore
import Testing

/// `LedgerMonth.of` reads a day's month from its bytes (D381): it must give what
/// `String(day.prefix(7))` gives for every text, days and anything else alike.
@Suite struct LedgerMonthOfTests {
    @Test(arguments: ["2026-01-31", "1999-12", "2026-1", "", "é2026-01-31", "2026-0é-01", "👩‍👩‍👧‍👦-2026-01", "2026-01\u{301}-01", "2026-0\r\n-01", "2026-01\r\n", "e\u{301}e\u{301}e\u{301}e\u{301}"])
    func theMonthIsTheFirstSevenCharacters(day: String) {
        #expect(LedgerMonth.of(day) == String(day.prefix(7)))
    }
}
