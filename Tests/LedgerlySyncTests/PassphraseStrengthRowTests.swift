import Foundation
@testable import LedgerlySync
import Testing

/// The sync review's leftovers (issue 44; D532): `PassphraseStrength.sequences` held rows that
/// could never match (the alphabet and three keyboard rows of letters, which the estimate counts
/// as words and never compares; the digits, which are neighbours in Unicode order anyway; and
/// `!@#$%^&*()`, a part of the longer symbol row). What is left must each decide something.
@Suite("Passphrase strength keyboard rows")
struct PassphraseStrengthRowTests {
    /// Every row is reachable (only digits and other characters are compared) and has a pair of
    /// neighbours that is a sequence only because of that row: neither a Unicode neighbour nor
    /// in another row.
    @Test func everyRowCanDecideSomething() {
        for (index, row) in PassphraseStrength.sequences.enumerated() {
            #expect(row.allSatisfy { !$0.isLetter && !$0.isNumber }, "row \(row) has characters the estimate never compares")
            var others = PassphraseStrength.sequences
            others.remove(at: index)
            let characters = Array(row)
            let decided = zip(characters, characters.dropFirst()).filter { !PassphraseStrength.isRunOrSequence($0, $1, rows: others) }
            #expect(!decided.isEmpty, "row \(row) decides nothing the others and Unicode order do not")
        }
    }

    /// Each pair of the symbol row that is not a Unicode neighbour: one symbol (5 bits) and one
    /// that follows it on the keyboard (1 bit), and not a sequence without the row.
    @Test(arguments: ["`~", "~!", "!@", "@#", "%^", "^&", "&*", "*(", ")-", "-_", "_=", "=+", "+=", "#@"])
    func theSymbolRowMakesEachPairASequence(pair: String) {
        let characters = Array(pair)
        #expect(!PassphraseStrength.isRunOrSequence(characters[0], characters[1], rows: []), "\(pair) is a sequence without the row")
        #expect(PassphraseStrength.isRunOrSequence(characters[0], characters[1]))
        #expect(abs(PassphraseStrength.estimatedBits(pair) - (log2(33.0) + 1)) < 1e-9, "\(pair): \(PassphraseStrength.estimatedBits(pair)) bits")
    }

    /// What the dropped rows covered is still counted as before, by the rules that decided it.
    @Test func whatTheDroppedRowsCoveredIsUnchanged() {
        #expect(abs(PassphraseStrength.estimatedBits("qwertyuiop") - PassphraseStrength.wordBits) < 1e-9)
        #expect(abs(PassphraseStrength.estimatedBits("0123456789") - (log2(10.0) + 9)) < 1e-9)
        #expect(abs(PassphraseStrength.estimatedBits("!@#$%^&*()") - (log2(33.0) + 9)) < 1e-9)
    }
}
