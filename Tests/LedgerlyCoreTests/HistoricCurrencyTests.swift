import Foundation
import LedgerlyCore
import Testing

/// Withdrawn ISO 4217 currencies (list three) keep the exponent ISO 4217 gave them (D90, D416).
@Suite struct HistoricCurrencyTests {
    /// Every historic code's minor unit, from outside the catalog (checked 2026-12-07):
    /// - OpenJDK `src/java.base/share/data/currency/CurrencyData.properties` (dataVersion 175,
    ///   kept from the ISO 4217 maintenance agency's tables): its `minor0` list gives 0, every
    ///   other code it lists 2. It lists 51 of the 68.
    /// - ROL is the one place OpenJDK is wrong: ISO 4217 gave the old leu 2 (100 bani) until it
    ///   was withdrawn in 2005, as QuantLib (`ql/currencies/europe.cpp`, `ROLCurrency`: 100
    ///   fractions) and GnuCash (`libgnucash/engine/iso-4217-currencies.xml`, ROL:
    ///   parts-per-unit and smallest-fraction 100) have it; issue 45 item 7.
    /// - AON, AOR, ARA, BRE, BRR, ECS, which OpenJDK does not list: GnuCash's
    ///   iso-4217-currencies.xml, parts-per-unit 100.
    /// - ARP, BRC, BRN, CSK, DDM, MXP, PEI, PLZ, SUR, UAK, XEU are in neither table: kept at 2,
    ///   ISO 4217's minor unit for each while current as far as we know, and named here so a
    ///   change to any of them is a decision, not an accident.
    static let outsideTable: [String: Int] = [
        // OpenJDK minor0
        "ADP": 0, "BEF": 0, "BYB": 0, "BYR": 0, "ESP": 0, "GRD": 0, "ITL": 0, "LUF": 0, "MGF": 0, "PTE": 0, "TPE": 0, "TRL": 0,
        // OpenJDK, 2 decimals
        "AFA": 2, "ATS": 2, "AYM": 2, "AZM": 2, "BGL": 2, "CSD": 2, "CUC": 2, "CYP": 2, "DEM": 2, "EEK": 2, "FIM": 2, "FRF": 2,
        "GHC": 2, "GWP": 2, "HRK": 2, "IEP": 2, "LTL": 2, "LVL": 2, "MRO": 2, "MTL": 2, "MZM": 2, "NLG": 2, "RUR": 2, "SDD": 2,
        "SIT": 2, "SKK": 2, "SLL": 2, "SRG": 2, "STD": 2, "TMM": 2, "VEB": 2, "VEF": 2, "YUM": 2, "ZMK": 2, "ZWD": 2, "ZWL": 2,
        "ZWN": 2, "ZWR": 2,
        // ISO 4217 (QuantLib, GnuCash), where OpenJDK gives 0
        "ROL": 2,
        // GnuCash parts-per-unit 100
        "AON": 2, "AOR": 2, "ARA": 2, "BRE": 2, "BRR": 2, "ECS": 2,
        // in neither table
        "ARP": 2, "BRC": 2, "BRN": 2, "CSK": 2, "DDM": 2, "MXP": 2, "PEI": 2, "PLZ": 2, "SUR": 2, "UAK": 2, "XEU": 2,
    ]

    /// The catalog's historic codes are exactly the table's, each with the table's minor unit.
    @Test func everyHistoricCodeHasTheOutsideTablesMinorUnit() throws {
        #expect(Set(CurrencyCatalog.historicEntries.map(\.code)) == Set(Self.outsideTable.keys))
        for entry in CurrencyCatalog.historicEntries {
            #expect(entry.exponent == Self.outsideTable[entry.code], "\(entry.code): catalog \(entry.exponent), outside table \(Self.outsideTable[entry.code].map(String.init) ?? "none")")
            let currency = try Currency(code: entry.code)
            #expect(currency.exponent == entry.exponent && currency.isISO && CurrencyCatalog.isHistoric(entry.code), "\(entry.code)")
        }
    }

    /// The outside check's amount: 8878056.80 ROL is an amount in bani, kept to the ban.
    @Test func oldLeiHaveBani() throws {
        let rol = try Currency(code: "ROL")
        #expect(try Money(parsing: "8878056.80", currency: rol).minorUnits == 887_805_680)
        #expect(throws: MoneyError.self) { try Money(parsing: "1.005", currency: rol) }
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
