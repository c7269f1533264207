import LedgerlyCore
import Testing

/// The catalog's tables are read by UTF-8 bytes (D274): every line becomes one entry, whole.
@Suite struct CurrencyCatalogTableTests {
    @Test func everyLineIsOneEntry() {
        // The lines of the two tables in CurrencyCatalog.swift.
        #expect(CurrencyCatalog.entries.count == 158)
        #expect(CurrencyCatalog.historicEntries.count == 68)
        for entry in CurrencyCatalog.entries + CurrencyCatalog.historicEntries {
            #expect(entry.code.count == 3 && entry.code.allSatisfy { $0.isASCII && $0.isUppercase }, "\(entry.code)")
            #expect((0...4).contains(entry.exponent), "\(entry.code)")
            #expect(!entry.name.isEmpty && entry.name.first != " " && entry.name.last != " ", "\(entry.code)")
        }
    }

    @Test(arguments: [
        ("EUR", 2, "Euro"), ("JPY", 0, "Yen"), ("BHD", 3, "Bahraini Dinar"), ("CLF", 4, "Unidad de Fomento"),
        ("UYW", 4, "Unidad Previsional"), ("AED", 2, "UAE Dirham"), ("ZWG", 2, "Zimbabwe Gold"), ("ADP", 0, "Andorran Peseta"),
    ])
    func knownEntries(_ code: String, _ exponent: Int, _ name: String) {
        let entry = CurrencyCatalog.entry(for: code)
        #expect(entry?.code == code && entry?.exponent == exponent && entry?.name == name)
    }
}
