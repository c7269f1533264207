import Foundation
import LedgerlyCore
import Testing

/// Withdrawn ISO 4217 currencies (list three) keep the exponent ISO 4217 gave them (D90).
@Suite struct HistoricCurrencyTests {
    @Test(arguments: [
        ("TRL", 0), ("ITL", 0), ("ESP", 0), ("BEF", 0), ("PTE", 0), ("GRD", 0), ("LUF", 0), ("BYR", 0), ("ROL", 0), ("ADP", 0),
        ("DEM", 2), ("FRF", 2), ("NLG", 2), ("ATS", 2), ("FIM", 2), ("IEP", 2), ("CYP", 2), ("EEK", 2), ("LTL", 2), ("LVL", 2),
        ("MTL", 2), ("SIT", 2), ("SKK", 2), ("HRK", 2), ("XEU", 2), ("YUM", 2), ("ZWD", 2), ("ZWL", 2), ("ZWN", 2), ("ZWR", 2),
        ("VEB", 2), ("VEF", 2), ("MRO", 2), ("STD", 2),
    ])
    func historicCodesHaveTheirISOExponent(code: String, exponent: Int) throws {
        let currency = try Currency(code: code)
        #expect(currency.exponent == exponent)
        #expect(currency.isISO)
        #expect(CurrencyCatalog.isHistoric(code))
    }

    /// Every currency of the ECB's historical reference rates (eurofxref-hist.csv's header) is known.
    @Test func theECBHistoryCurrenciesAreAllKnown() {
        let header = "USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR"
        for code in header.split(separator: ",").map(String.init) {
            #expect(CurrencyCatalog.entry(for: code) != nil, "\(code) is not in the catalog")
        }
    }

    @Test func lirasHaveNoDecimals() throws {
        let trl = try Currency(code: "TRL")
        #expect(throws: MoneyError.self) { try Money(parsing: "100.55", currency: trl) }
        #expect(try Money(parsing: "1500000", currency: trl).minorUnits == 1_500_000)
        #expect(try Money(parsing: "100.00", currency: trl).minorUnits == 100)  // trailing zeros are fine
    }

    /// EUR→TRL at the last ECB reference rate (2004-12-31: 1 EUR = 1836200 TRL) gives whole lira.
    @Test func aConversionToTRLRoundsToWholeLira() throws {
        let rate = try ExchangeRate(parsing: "1836200")
        let eur = try Currency(code: "EUR"), trl = try Currency(code: "TRL")
        let result = try CurrencyConverter.apply(rate, to: try Money(parsing: "1.23", currency: eur), target: trl)
        #expect(result.minorUnits == 2_258_526)  // 1.23 × 1836200 = 2258526 exactly
        #expect(result.decimalString == "2258526")
        let small = try CurrencyConverter.apply(try ExchangeRate(parsing: "1836200.7"), to: try Money(parsing: "0.01", currency: eur), target: trl)
        #expect(small.decimalString == "18362")  // 18362.007 → 18362, no decimals
    }

    @Test func historicCodesAreNotOfferedBySearch() {
        #expect(!CurrencyCatalog.search("lira").map(\.code).contains("ITL"))
        #expect(CurrencyCatalog.entry(for: "ITL")?.name == "Italian Lira")
        let all = CurrencyCatalog.entries.map(\.code) + CurrencyCatalog.historicEntries.map(\.code)
        #expect(Set(all).count == all.count)
    }
}
