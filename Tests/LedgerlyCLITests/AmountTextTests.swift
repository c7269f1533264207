@testable import LedgerlyCLI
import Testing

/// Amounts as people type them (`AmountText`): grouping checked, the locale's decimal mark, a
/// currency mark before or after.
@Suite struct AmountTextTests {
    static let point = AmountText(decimalComma: false)
    static let comma = AmountText(decimalComma: true)

    @Test(arguments: [
        ("12.50", "12.50", nil), ("1,234.56", "1234.56", nil), ("1 234.56", "1234.56", nil), ("1'234'567", "1234567", nil), ("1,234", "1234", nil),
        ("€12.50", "12.50", "EUR"), ("12.50 €", "12.50", "EUR"), ("EUR 12.50", "12.50", "EUR"), ("12.50USD", "12.50", "USD"), ("£1,000", "1000", "GBP"),
        ("-3.20", "-3.20", nil), ("-€3.20", "-3.20", "EUR"), ("1\u{00A0}234.50", "1234.50", nil), ("0", "0", nil),
    ] as [(String, String, String?)])
    func pointLocale(text: String, amount: String, currency: String?) throws {
        let read = try Self.point.read(text)
        #expect(read.amount == amount && read.currency == currency, "\(text)")
    }

    @Test(arguments: [
        ("12,50", "12.50", nil), ("1.234,56", "1234.56", nil), ("1 234,56 €", "1234.56", "EUR"), ("1.234", "1234", nil), ("12,50 zł", "12.50", "PLN"),
    ] as [(String, String, String?)])
    func commaLocale(text: String, amount: String, currency: String?) throws {
        let read = try Self.comma.read(text)
        #expect(read.amount == amount && read.currency == currency, "\(text)")
    }

    @Test func whatCouldBeMisreadIsRefused() {
        #expect(throws: AmountTextError.badGrouping("12,50", comma: false)) { try Self.point.read("12,50") }
        #expect(throws: AmountTextError.badGrouping("1,23,456.00", comma: false)) { try Self.point.read("1,23,456.00") }
        #expect(throws: AmountTextError.badGrouping("1,234 567", comma: false)) { try Self.point.read("1,234 567") }
        #expect(throws: AmountTextError.wrongDecimalMark("1,234.56", comma: true)) { try Self.comma.read("1,234.56") }
        #expect(throws: AmountTextError.ambiguousSymbol("$12.50")) { try Self.point.read("$12.50") }
        #expect(throws: AmountTextError.ambiguousSymbol("1200 ¥")) { try Self.point.read("1200 ¥") }
        #expect(throws: AmountTextError.twoMarks("€12.50 EUR")) { try Self.point.read("€12.50 EUR") }
        // A group of thousands never starts with 0: `0,500` is a decimal written with the other
        // mark, and reading it as 500 would be a thousand times too much.
        #expect(throws: AmountTextError.wrongDecimalMark("0,500", comma: false)) { try Self.point.read("0,500") }
        #expect(throws: AmountTextError.wrongDecimalMark("0.125", comma: true)) { try Self.comma.read("0.125") }
        #expect(throws: AmountTextError.wrongDecimalMark("0,935", comma: false)) { try Self.point.read("0,935", loneGroupIsAmbiguous: true) }
        // For rates, prices, quantities and percentages one group of three could be either reading.
        #expect(throws: AmountTextError.ambiguousGroup("1.085", comma: true)) { try Self.comma.read("1.085", loneGroupIsAmbiguous: true) }
        #expect(throws: AmountTextError.ambiguousGroup("1,085", comma: false)) { try Self.point.read("1,085", loneGroupIsAmbiguous: true) }
        #expect((try? Self.point.read("1,085"))?.amount == "1085", "money keeps the thousands reading")
        #expect((try? Self.point.read("1,085.50", loneGroupIsAmbiguous: true))?.amount == "1085.50", "a decimal part settles it")
        #expect((try? Self.point.read("1,234,567", loneGroupIsAmbiguous: true))?.amount == "1234567", "two groups cannot be a decimal")
        for text in ["", "abc", "12.", ".5", "12.50.1", "1e3", "--"] {
            #expect(throws: AmountTextError.self, "\(text)") { try Self.point.read(text) }
        }
    }

    @Test func theLocaleSaysWhichMarkIsDecimal() {
        #expect(AmountText.decimalComma(environment: ["LANG": "de_DE.UTF-8"]))
        #expect(!AmountText.decimalComma(environment: ["LANG": "en_GB.UTF-8"]))
        #expect(!AmountText.decimalComma(environment: ["LANG": "de_DE.UTF-8", "LC_NUMERIC": "C"]))
        #expect(AmountText.decimalComma(environment: ["LC_ALL": "fr_FR.UTF-8", "LC_NUMERIC": "en_US.UTF-8"]))
        #expect(!AmountText.decimalComma(environment: [:]))
    }
}
