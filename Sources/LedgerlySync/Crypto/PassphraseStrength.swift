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
/// - a run of letters is split where its case changes (`CorrectHorse` is `Correct` + `Horse`,
///   `XMLHttp` is `XML` + `Http`); each piece all lower case, all upper case or capitalised counts
///   as a dictionary word: at most log2(7776) = 12.9 bits (a diceware list), or 4.7 bits a letter
///   when shorter; each split adds 1 bit (where the capitals are). So a capital is credited only as
///   the start of a word, never as a character class of its own (D490);
/// - a digit counts 3.3 bits, any other character 5 bits (33 printable symbols), except a space,
///   `-`, `_` or `.` after a word and before a word or number, which counts nothing (it only
///   separates them);
/// - a digit or symbol that repeats the character before it or is next to it (in the alphabet,
///   on a keyboard row, in Unicode order: `1111`, `1234`, `4321`, `!@#$`, `①②③`) counts 1 bit:
///   runs and sequences are the first thing guessed (D490);
/// - digits that end a passphrase with letters in it count 1 bit each (`Password1`,
///   `…staple2024`: appending a number is the common trick) (D490);
/// - a part seen before counts nothing (`horse horse horse` is one word).
///
/// So four common words ("correct horse battery staple") are 51.6 bits and refused, five random
/// words 64.5 and accepted, as are 14 random characters of mixed kinds. The estimate never
/// overstates a passphrase built from words; it may understate a long run of random letters
/// (taken as words), which is the safe way to be wrong.
public enum PassphraseStrength {
    /// What a new ledger's passphrase must reach.
    public static let minimumBits = 60.0

    static let wordBits = log2(7776.0)

    /// Keyboard rows whose neighbours are a sequence (either direction) although they are not
    /// neighbours in Unicode order: the symbols of the top row, shifted and not (`!@#$`, `-_=+`).
    ///
    /// Only digits and other characters are ever compared here (a run of letters counts as a
    /// word), and neighbours in Unicode order count already, so a row of letters, of the digits
    /// `0123456789`, or one inside another row could never decide anything: the alphabet, the
    /// three letter rows, the digits and `!@#$%^&*()` (inside this row) were dropped as dead
    /// (D532). Each character here is neither a letter nor a digit, and each adjacent pair that
    /// is not a Unicode neighbour is a sequence only because of this row
    /// (`PassphraseStrengthRowTests`).
    static let sequences = ["`~!@#$%^&*()-_=+"]

    /// The estimate in bits.
    public static func estimatedBits(_ passphrase: String) -> Double {
        let characters = Array(passphrase.precomposedStringWithCanonicalMapping)
        var bits = 0.0
        var seen = Set<String>()
        var index = 0
        var previousWasWord = false
        var previous: Character?
        while index < characters.count {
            let character = characters[index]
            if character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                let pieces = casePieces(characters[index..<end])
                index = end
                previousWasWord = true
                previous = characters[end - 1]
                for (number, piece) in pieces.enumerated() {
                    guard seen.insert(piece.lowercased()).inserted else { continue }
                    bits += min(Double(piece.count) * log2(26.0), wordBits) + (number > 0 ? 1 : 0)
                }
            } else if character.isNumber {
                var end = index
                while end < characters.count, characters[end].isNumber { end += 1 }
                let run = characters[index..<end]
                let trailing = end == characters.count && characters[..<index].contains(where: \.isLetter)
                index = end
                previousWasWord = false
                previous = run.last
                guard seen.insert(String(run)).inserted else { continue }
                var last: Character?
                for digit in run {
                    bits += trailing || last.map({ isRunOrSequence($0, digit) }) == true ? 1 : log2(10.0)
                    last = digit
                }
            } else {
                let nextIsWord = index + 1 < characters.count && (characters[index + 1].isLetter || characters[index + 1].isNumber)
                let separator = " -_.".contains(character) && previousWasWord && nextIsWord
                let follows = previous.map { !$0.isLetter && !$0.isNumber && isRunOrSequence($0, character) } ?? false
                index += 1
                previousWasWord = false
                previous = character
                if separator { continue }
                guard seen.insert(String(character)).inserted else { continue }
                bits += follows ? 1 : log2(33.0)
            }
        }
        return bits
    }

    /// A run of letters cut where its case changes: a lower-case letter followed by a capital
    /// starts a piece at the capital; capitals followed by a lower-case letter start one at the
    /// last capital (`XMLHttp` → `XML`, `Http`). Letters without case never split.
    static func casePieces(_ run: ArraySlice<Character>) -> [String] {
        var pieces: [String] = []
        var current: [Character] = []
        for letter in run {
            if let last = current.last {
                if last.isLowercase, letter.isUppercase {
                    pieces.append(String(current))
                    current = []
                } else if last.isUppercase, letter.isLowercase, current.count > 1, current.allSatisfy(\.isUppercase) {
                    pieces.append(String(current.dropLast()))
                    current = [last]
                }
            }
            current.append(letter)
        }
        if !current.isEmpty { pieces.append(String(current)) }
        return pieces
    }

    /// Whether `next` repeats `previous` or is its neighbour in Unicode order or in one of `rows`.
    static func isRunOrSequence(_ previous: Character, _ next: Character, rows: [String] = sequences) -> Bool {
        let a = Character(previous.lowercased()), b = Character(next.lowercased())
        if a == b { return true }
        // Neighbours in Unicode order too: ①②③, ٠١٢ (Arabic-Indic digits), 😀😁😂 are
        // sequences a guesser tries as surely as 123.
        if let x = a.unicodeScalars.first?.value, let y = b.unicodeScalars.first?.value,
           a.unicodeScalars.count == 1, b.unicodeScalars.count == 1, x &+ 1 == y || y &+ 1 == x { return true }
        for row in rows {
            guard let i = row.firstIndex(of: a), let j = row.firstIndex(of: b) else { continue }
            if abs(row.distance(from: i, to: j)) == 1 { return true }
        }
        return false
    }

    /// Throws `SyncCryptoError.weakPassphrase` when `passphrase` is below `minimumBits`.
    public static func check(_ passphrase: String) throws(SyncCryptoError) {
        let bits = estimatedBits(passphrase)
        guard bits >= minimumBits else { throw .weakPassphrase(estimatedBits: Int(bits.rounded(.down)), required: Int(minimumBits)) }
    }
}
