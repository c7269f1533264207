import Foundation
import LedgerlyCore
import Testing

/// A conversion result is an amount like any other: below 10¹⁵ minor units (D89).
@Suite struct ConversionLimitTests {
    @Test func aResultAtTheAmountLimitIsRefused() throws {
        let eur = try Currency(code: "EUR"), jpy = try Currency(code: "JPY")
        // 10^13 EUR − 0.01 at 100 = 10^15 − 1 JPY: the largest amount there is.
        let largest = try CurrencyConverter.apply(try ExchangeRate(parsing: "100"), to: try Money(parsing: "9999999999999.99", currency: eur), target: jpy)
        #expect(largest.minorUnits == Money.maximumMinorUnits - 1)
        #expect(throws: ConversionError.resultTooLarge(amount: "1000000000000.00 EUR", to: "JPY")) {
            try CurrencyConverter.apply(try ExchangeRate(parsing: "1000"), to: try Money(parsing: "1000000000000", currency: eur), target: jpy)
        }
        let message = ConversionError.resultTooLarge(amount: "1000000000000.00 EUR", to: "JPY").description
        #expect(message.contains("must be below 1000000000000000 JPY"))
    }
}
