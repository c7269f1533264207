import LedgerlyCore
import Testing

/// `Money(parsing:)` is read on every amount of a load, an import and an export, so it was
/// rewritten to allocate nothing (D354). The rule did not change: the previous version is kept
/// here as the oracle, and both must give the same amount or the same error on every text.
@Suite struct MoneyParsingOracleTests {
    @Test func givesWhatThePreviousParserGaveOnGeneratedTexts() throws {
        var generator = SeededGenerator(seed: 354)
        // Digits, zeros, points and signs most of all, so most texts are near-misses of amounts.
        let alphabet: [Character] = ["0", "0", "0", "1", "5", "9", ".", ".", "-", "-", "7", "3", "e", " ", "+", "١", "\u{301}"]
        let currencies = try ["EUR", "JPY", "BHD", "BTC"].map { try Currency(code: $0) }
        for _ in 0..<60_000 {
            let length = Int(generator.next() % 24)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            for currency in currencies {
                #expect(outcome { () throws(MoneyError) in try Money(parsing: text, currency: currency) } == outcome { () throws(MoneyError) in try Self.previous(text, currency: currency) },
                        "\(text) in \(currency.code)")
            }
        }
    }

    @Test(arguments: ["92233720368547758.07", "92233720368547758.08", "-92233720368547758.07", "9223372036854775807", "9223372036854775808",
                      "0.000", "00012.3400", "12.345000", "12.", "-0", "-.5", "1..2"])
    func givesWhatThePreviousParserGaveAtTheEdges(text: String) throws {
        for code in ["EUR", "JPY", "BHD", "BTC"] {
            let currency = try Currency(code: code)
            #expect(outcome { () throws(MoneyError) in try Money(parsing: text, currency: currency) } == outcome { () throws(MoneyError) in try Self.previous(text, currency: currency) })
        }
    }

    private func outcome(_ parse: () throws(MoneyError) -> Money) -> Result<Money, MoneyError> {
        do { return .success(try parse()) } catch { return .failure(error) }
    }

    /// `Money(parsing:)` before D354, word for word.
    static func previous(_ text: String, currency: Currency) throws(MoneyError) -> Money {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count == 2 ? parts[1] : bytes[bytes.endIndex...]
        let isDigits: (Substring.UTF8View.SubSequence) -> Bool = { $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), !(parts.count == 2 && fraction.isEmpty) else {
            throw MoneyError.malformedAmount(text)
        }
        while fraction.count > currency.exponent, fraction.last == 0x30 { fraction = fraction.dropLast() }
        guard fraction.count <= currency.exponent else {
            throw MoneyError.tooManyDecimals(amount: text, currency: currency.code, allowed: currency.exponent)
        }
        var value: Int64 = 0
        let padding = repeatElement(UInt8(0x30), count: currency.exponent - fraction.count)
        for byte in [whole, fraction].joined().map({ $0 }) + padding {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            if overflow1 || overflow2 { throw MoneyError.outOfRange(text) }
            value = added
        }
        return Money(minorUnits: negative ? -value : value, currency: currency)
    }
}
