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
