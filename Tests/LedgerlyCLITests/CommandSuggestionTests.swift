@testable import LedgerlyCLI
import Testing

/// "Did you mean" for a mistyped command, on the real command tree.
@Suite struct CommandSuggestionTests {
    static func suggestion(_ arguments: String...) -> String? {
        CommandSuggestion.message(for: arguments, root: LedgerlyCommand.self)
    }

    @Test func aTypoOrABeginningIsSuggested() {
        #expect(Self.suggestion("tx", "lst") == "unknown command 'lst' under 'ledgerly tx': did you mean 'list'?")
        #expect(Self.suggestion("walet", "list") == "unknown command 'walet' under 'ledgerly': did you mean 'wallet'?")
        #expect(Self.suggestion("rep") == "unknown command 'rep' under 'ledgerly': did you mean 'report'?")
        #expect(Self.suggestion("invest", "hodlings") == "unknown command 'hodlings' under 'ledgerly invest': did you mean 'holdings'?")
    }

    @Test func nothingIsSuggestedForValidOrFarWords() {
        #expect(Self.suggestion("tx", "list", "--from", "2026-11") == nil)
        #expect(Self.suggestion("tx", "add", "--wallet", "X") == nil)
        #expect(Self.suggestion("xyzzy") == nil)
        #expect(Self.suggestion("goal", "fund", "Trip", "50") == nil, "goal fund takes arguments, not subcommands")
    }

    @Test func theDistanceIsLevenshteins() {
        #expect(NameSuggestion.distance("lst", "list") == 1)
        #expect(NameSuggestion.distance("hodlings", "holdings") == 2)
        #expect(NameSuggestion.distance("", "tx") == 2)
        #expect(NameSuggestion.distance("same", "same") == 0)
    }

    @Test func namesAreSuggestedIgnoringCase() {
        #expect(NameSuggestion.nearest("chekcing", among: ["Checking", "Savings"]) == "Checking")
        #expect(NameSuggestion.nearest("sav", among: ["Checking", "Savings"]) == "Savings")
        #expect(NameSuggestion.nearest("Groceries", among: ["Food", "Food/Groceries"]) == nil)
        #expect(NameSuggestion.nearest("Xyz", among: ["Checking", "Savings"]) == nil)
    }
}
