@testable import LedgerlyInterchange
import Testing

/// Beancount's account and commodity names for the journal's, valid and unique.
@Suite struct BeancountNamesTests {
    @Test func accountsBecomeBeancountNames() {
        var names = BeancountNames()
        #expect(names.account("assets:Café Wallet") == "Assets:Café-Wallet")
        #expect(names.account("expenses:日本食") == "Expenses:X-日本食")
        #expect(names.account("expenses:uncategorized") == "Expenses:Uncategorized")
        #expect(names.account("expenses:Rent/Mortgage") == "Expenses:Rent-Mortgage")
        #expect(names.account("assets:Savings- Joint Account") == "Assets:Savings-Joint-Account")
        #expect(names.account("income:2024 bonus") == "Income:2024-bonus")
        #expect(names.account("expenses:!!!") == "Expenses:Unnamed")
        #expect(names.account("equity:opening balances") == "Equity:Opening-balances")
        // A decomposed accent is a mark beancount does not take in a name.
        #expect(names.account("assets:Cafe\u{301}") == "Assets:Cafe")
    }

    @Test func namesThatMeetAreKeptApart() {
        var names = BeancountNames()
        #expect(names.account("expenses:Food & Drink") == "Expenses:Food-Drink")
        #expect(names.account("expenses:Food - Drink") == "Expenses:Food-Drink-2")
        // Asked again, a name is the one it was given.
        #expect(names.account("expenses:Food & Drink") == "Expenses:Food-Drink")
        // A child stays under its own parent's name.
        #expect(names.account("expenses:Food - Drink:Bar") == "Expenses:Food-Drink-2:Bar")
        #expect(names.account("expenses:Food & Drink:Bar") == "Expenses:Food-Drink:Bar")
    }

    /// Beancount takes 24 characters at most: a longer symbol is cut (ending on a letter or
    /// digit), and a `-2` stays within the 24.
    @Test func longCommoditiesAreCutTo24() {
        var names = BeancountNames()
        let first = names.commodity("ISHARES-CORE-MSCI-WORLD-ETF")
        let second = names.commodity("ISHARES-CORE-MSCI-WORLD-ETF-ACC")
        #expect(first == "ISHARES-CORE-MSCI-WORLD")
        #expect(second == "ISHARES-CORE-MSCI-WORL-2")
        #expect(first.count <= 24 && second.count <= 24)
    }

    /// Notes longer than beancount's 64 lines a string are cut into parts that join back.
    @Test func longNotesAreCutIntoStringsBeancountTakes() {
        let notes = (1...150).map { "line \($0)" }.joined(separator: "\n")
        let parts = BeancountSyntax.stringParts(notes)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { $0.split(separator: "\n", omittingEmptySubsequences: false).count <= 64 })
        #expect(parts.joined(separator: "\n") == notes)
        #expect(BeancountSyntax.stringParts("") == [""])
    }

    @Test func commoditiesBecomeBeancountCurrencies() {
        var names = BeancountNames()
        #expect(names.commodity("EUR") == "EUR")
        #expect(names.commodity("VWCE.DE") == "VWCE.DE")
        #expect(names.commodity("1INCH") == "X1INCH")
        #expect(names.commodity("X") == "XX")
        #expect(names.commodity("BRK B") == "BRK-B")
        #expect(names.commodity("ABC-") == "ABC-X")
    }

    @Test func stringsKeepLinesAndEscapeQuotes() {
        #expect(BeancountSyntax.string("a \"b\" \\ c\nd\u{0}e") == "\"a \\\"b\\\" \\\\ c\nd e\"")
        #expect(BeancountSyntax.tag("trip 2026") == "trip-2026")
        #expect(BeancountSyntax.tag("été") == "t")
        #expect(BeancountSyntax.tag("  ") == nil)
    }
}
