import LedgerlyCore
import Testing

/// `LedgerDate` reads and writes every transaction's day, so both were rewritten on bytes (D354).
/// The rule did not change: the previous versions are the oracle here.
@Suite struct LedgerDateOracleTests {
    @Test func readsGeneratedTextsAsThePreviousReaderDid() {
        var generator = SeededGenerator(seed: 3541)
        let alphabet: [Character] = ["0", "1", "2", "3", "9", "-", "-", "/", " ", "١", "+", "\u{301}"]
        for _ in 0..<100_000 {
            // Mostly `DDDD-DD-DD` with one or two characters changed, some of other lengths.
            var characters = Array(String(format4(Int(generator.next() % 10_000))) + "-" + pad2(Int(generator.next() % 14)) + "-" + pad2(Int(generator.next() % 33)))
            for _ in 0..<Int(generator.next() % 3) where !characters.isEmpty {
                let position = Int(generator.next() % UInt64(characters.count))
                switch generator.next() % 3 {
                case 0: characters[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: characters.remove(at: position)
                default: characters.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                }
            }
            let text = String(characters)
            #expect(LedgerDate(text).map { [$0.year, $0.month, $0.day] } == Self.previous(text), "\(text)")
        }
    }

    @Test func writesEveryDayOfFourCenturiesAsThePreviousWriterDid() {
        for year in [1, 9, 10, 99, 100, 999, 1000, 1900, 2000, 2024, 2026, 9999] {
            for month in 1...12 {
                for day in 1...LedgerDate.daysIn(month: month, year: year) {
                    let text = format4(year) + "-" + pad2(month) + "-" + pad2(day)
                    #expect(LedgerDate(text)?.description == text)
                }
            }
        }
    }

    private func format4(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
    private func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// `LedgerDate(_:)` before D354, word for word: the year, month and day it read.
    static func previous(_ text: String) -> [Int]? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...9999).contains(year), (1...12).contains(month),
              (1...LedgerDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return [year, month, day]
    }
}
