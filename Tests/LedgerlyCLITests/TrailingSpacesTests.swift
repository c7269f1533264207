@testable import LedgerlyCLI
import Testing

/// `trimmingTrailingSpaces` finds the trailing spaces in the UTF-8 bytes (D273): the result is the
/// one removing `Character`s one at a time gives.
@Suite struct TrailingSpacesTests {
    /// The rule it replaced, the reference for every case.
    static func byCharacter(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }

    @Test(arguments: [
        "", " ", "   ", "abc", "abc   ", "  abc  ", "a b  c ", "12.50  ", "Café  ", "Café", "日本 ", "€ 1  ",
        "\u{1B}[1mTOTAL\u{1B}[0m  ", "e\u{301}  ", "\u{600} ", "\u{600}   ", "\u{600}  x  ", "👍🏽 ", "x\r\n ",
        "2021-11  71.5  ████████▌    ", "████", "█ ", "\u{1B}[33m███\u{1B}[0m   ",
    ])
    func sameAsRemovingCharacters(_ text: String) {
        #expect(text.trimmingTrailingSpaces() == Self.byCharacter(text))
    }

    /// A space after a prepended mark is part of that mark's character, so it stays; the spaces
    /// after it go.
    @Test func aSpaceJoinedToThePreviousCharacterStays() {
        #expect("\u{600} ".trimmingTrailingSpaces() == "\u{600} ")
        #expect("a\u{600}   ".trimmingTrailingSpaces() == "a\u{600} ")
    }
}
