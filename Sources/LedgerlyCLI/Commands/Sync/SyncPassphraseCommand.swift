import ArgumentParser

/// `ledgerly sync passphrase suggest`: a passphrase strong enough for a new ledger (D434).
struct SyncPassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase", abstract: "Help with the sync passphrase.",
        subcommands: [SyncPassphraseSuggestCommand.self])
}

/// Prints six random pronounceable words (three syllables each, a consonant and a vowel from 16
/// and 5: 80 syllables, about 19 bits a word, 113 bits in all) drawn with the system's secure
/// random generator. Words made up rather than taken from a list: no word list to ship or to
/// license, and each still counts as a dictionary word (12.9 bits) in Ledgerly's own estimate,
/// so a suggestion is always accepted (77 bits of the 60 needed). Nothing is stored or logged.
struct SyncPassphraseSuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Print a random passphrase strong enough for a new sync ledger (six made-up words).",
        discussion: "Write it down somewhere safe: a lost passphrase cannot be recovered. It is printed, not kept.")

    @Option(help: "How many words (5 to 12).") var words = 6

    func validate() throws {
        guard (5...12).contains(words) else { throw ValidationError("--words must be 5 to 12") }
    }

    func run() throws {
        print(Self.suggest(words: words))
    }

    static func suggest(words: Int) -> String {
        let consonants = Array("bdfghjklmnprstvz"), vowels = Array("aeiou")
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in
            String((0..<3).flatMap { _ in [consonants.randomElement(using: &generator)!, vowels.randomElement(using: &generator)!] })
        }.joined(separator: "-")
    }
}
