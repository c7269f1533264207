import LedgerlySync
import Testing

/// Issue 44, finding 7: a new ledger's passphrase must reach 60 bits by Ledgerly's estimate
/// (before, the one letter `a` was accepted and guessed offline in four tries).
@Suite("Passphrase strength")
struct PassphraseStrengthTests {
    @Test(arguments: [
        "a", "password", "Password1!", "hunter2", "correct horse battery staple", "Tr0ub4dor&3",
        "horse horse horse horse horse horse", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "12345678901234567",
    ])
    func weakPassphrasesAreRefused(passphrase: String) {
        #expect(PassphraseStrength.estimatedBits(passphrase) < PassphraseStrength.minimumBits, "\(PassphraseStrength.estimatedBits(passphrase)) bits")
        #expect(throws: SyncCryptoError.self) { try PassphraseStrength.check(passphrase) }
    }

    @Test(arguments: [
        "correct horse battery staple orbit", "bemoka-tirulo-fazeni-gopuda-kisevo-lunari",
        "Xq7#mZ9!pL2@w4", "k8Jd2mQp9xLr4TnB", "vier Wörter reichen nicht ganz, fünf schon",
    ])
    func strongPassphrasesAreAccepted(passphrase: String) throws {
        #expect(PassphraseStrength.estimatedBits(passphrase) >= PassphraseStrength.minimumBits, "\(PassphraseStrength.estimatedBits(passphrase)) bits")
        try PassphraseStrength.check(passphrase)
    }

    /// The review's leftovers (issue 44, item 4; D490): each of these scored 60 bits or more
    /// before runs, sequences, case-change words and trailing digits were counted as guessers
    /// count them (`1111111111111111111` was 63 bits and accepted).
    @Test(arguments: [
        "1111111111111111111", "12345678901234567890", "98765432109876543210", "1234567890!@#$%^&*()",
        "qwerty1234567890asdfgh0987654321", "CorrectHorseBatteryStaple", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "ZXCVBNMzxcvbnm!@#$%^&*",
        "correct horse battery staple 2024", "Correcthorsebatterystaple1234567890123456",
    ])
    func runsSequencesAndCaseTricksAreRefused(passphrase: String) {
        #expect(PassphraseStrength.estimatedBits(passphrase) < PassphraseStrength.minimumBits, "\(PassphraseStrength.estimatedBits(passphrase)) bits")
    }

    /// Consecutive characters beyond the keyboard rows (circled numbers, emoji, symbols in Unicode
    /// order) are a sequence too: each scored a full digit or symbol and passed at 63–70 bits.
    @Test(arguments: ["①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲", "😀😁😂😃😄😅😆😇😈😉😊😋😌😍", "٠١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩"])
    func sequencesInUnicodeOrderAreRefused(passphrase: String) {
        #expect(PassphraseStrength.estimatedBits(passphrase) < PassphraseStrength.minimumBits, "\(PassphraseStrength.estimatedBits(passphrase)) bits")
    }

    /// Diceware passphrases of five or more words, however they are joined or capitalised, and
    /// random characters still pass.
    @Test(arguments: [
        "CorrectHorseBatteryStapleOrbit", "correct-horse-battery-staple-orbit-7", "Correct Horse Battery Staple Orbit",
        "cleft cam synod lacy yr wok", "tirade.gorge.ruin.dwell.jackal", "q8#Lm2!vZ0@r5T",
    ])
    func dicewareAndRandomStillPass(passphrase: String) {
        #expect(PassphraseStrength.estimatedBits(passphrase) >= PassphraseStrength.minimumBits, "\(PassphraseStrength.estimatedBits(passphrase)) bits")
    }

    @Test func theRefusalSaysHowMuchAndWhatToDo() {
        do {
            try PassphraseStrength.check("a")
            Issue.record("accepted \"a\"")
        } catch {
            #expect(error == .weakPassphrase(estimatedBits: 4, required: 60))
            #expect(error.description.contains("ledgerly sync passphrase suggest"))
            #expect(error.description.contains("Five or more random words"))
        }
    }
}
