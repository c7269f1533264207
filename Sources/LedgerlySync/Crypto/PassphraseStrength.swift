import Foundation

/// A cautious estimate of how many guesses a passphrase is worth, and the bar a new ledger's
/// passphrase must clear (D434).
///
/// Why a bar at all: the hub keeps the KDF salt and a key check, so whoever reads the hub (its
/// operator, a backup, a thief) can test guesses offline as fast as scrypt allows. scrypt makes
/// each guess cost about a tenth of a second of one core; a list of likely passphrases is short.
/// At 60 bits an attacker with a thousand cores still needs millions of years; at the one letter
/// `a`, four guesses.
///
/// The estimate, in bits, adds up the passphrase's parts (split into runs of letters, runs of
/// digits, and single other characters), assuming an attacker who knows how people build them:
///
/// - a run of letters all lower case, all upper case, or capitalised counts as a dictionary word:
///   at most log2(7776) = 12.9 bits (a diceware list), or 4.7 bits a letter when shorter;
/// - a run of letters that mixes case inside counts 5.7 bits a letter (52 possibilities);
/// - a digit counts 3.3 bits, any other character 5 bits (33 printable symbols), except a space,
///   `-`, `_` or `.` between two words, which counts nothing (it only separates them);
/// - a part seen before counts nothing (`horse horse horse` is one word).
///
/// So four common words ("correct horse battery staple") are 51.6 bits and refused, five random
/// words 64.5 and accepted, as are 12 random characters of mixed kinds. The estimate never
/// overstates a passphrase built from words; it may understate a long run of random lower-case
/// letters (taken as a word), which is the safe way to be wrong.
public enum PassphraseStrength {
    /// What a new ledger's passphrase must reach.
    public static let minimumBits = 60.0

    static let wordBits = log2(7776.0)

    /// The estimate in bits.
    public static func estimatedBits(_ passphrase: String) -> Double {
        let characters = Array(passphrase.precomposedStringWithCanonicalMapping)
        var bits = 0.0
        var seen = Set<String>()
        var index = 0
        var previousWasWord = false
        while index < characters.count {
            let character = characters[index]
            if character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                let run = String(characters[index..<end])
                index = end
                previousWasWord = true
                guard seen.insert(run.lowercased()).inserted else { continue }
                bits += letterRunBits(run)
            } else if character.isNumber {
                var end = index
                while end < characters.count, characters[end].isNumber { end += 1 }
                let run = String(characters[index..<end])
                index = end
                previousWasWord = false
                guard seen.insert(run).inserted else { continue }
                bits += Double(run.count) * log2(10.0)
            } else {
                let nextIsLetter = index + 1 < characters.count && characters[index + 1].isLetter
                let separator = " -_.".contains(character) && previousWasWord && nextIsLetter
                index += 1
                previousWasWord = false
                if separator { continue }
                guard seen.insert(String(character)).inserted else { continue }
                bits += log2(33.0)
            }
        }
        return bits
    }

    private static func letterRunBits(_ run: String) -> Double {
        let lower = run.lowercased(), upper = run.uppercased()
        let capitalised = run.prefix(1).uppercased() + run.dropFirst().lowercased()
        if run == lower || run == upper || run == capitalised {
            return min(Double(run.count) * log2(26.0), wordBits)
        }
        return Double(run.count) * log2(52.0)
    }

    /// Throws `SyncCryptoError.weakPassphrase` when `passphrase` is below `minimumBits`.
    public static func check(_ passphrase: String) throws(SyncCryptoError) {
        let bits = estimatedBits(passphrase)
        guard bits >= minimumBits else { throw .weakPassphrase(estimatedBits: Int(bits.rounded(.down)), required: Int(minimumBits)) }
    }
}
