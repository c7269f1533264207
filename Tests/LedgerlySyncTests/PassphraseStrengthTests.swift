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
