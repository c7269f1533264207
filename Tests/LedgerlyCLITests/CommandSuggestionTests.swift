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
        #expect(CommandSuggestion.distance("lst", "list") == 1)
        #expect(CommandSuggestion.distance("hodlings", "holdings") == 2)
        #expect(CommandSuggestion.distance("", "tx") == 2)
        #expect(CommandSuggestion.distance("same", "same") == 0)
    }
}
