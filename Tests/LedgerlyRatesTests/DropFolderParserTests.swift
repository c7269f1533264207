import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

@Suite struct DropFolderParserTests {
    let parser = DropFolderParser()

    @Test func readsTheCSVFile() throws {
        let rates = try parser.parseCSV(Fixture.data("dropfolder-parallel.csv"))
        #expect(rates.map(\.description) == [
            "USD/ARS 1185.5 on 2026-11-20",
            "EUR/ARS 1320.25 on 2026-11-20",
            "USD/NGN 1620 on 2026-11-20",
            "USD/VES 245.75 on 2026-11-19",
            "USD/IRR 1045000",
        ])
        #expect(try parser.parse(Fixture.data("dropfolder-parallel.csv")) == rates)
    }

    @Test func readsTheJSONFile() throws {
        let rates = try parser.parseJSON(Fixture.data("dropfolder-parallel.json"))
        #expect(rates.map(\.description) == ["USD/ARS 1185.5 on 2026-11-20", "EUR/ARS 1320.25 on 2026-11-20", "USD/NGN 1620"])
        #expect(rates[0].rate.value == Decimal(string: "1185.50"))
        #expect(try parser.parse(Fixture.data("dropfolder-parallel.json")) == rates)
    }

    @Test func aBadRateNamesItsLine() throws {
        let error = try providerError(file: "dropfolder-bad-line.csv") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .badRate(.dropFolderCSV, pair: "USD/NGN", value: "-1620.00", at: .line(4), reason: .notPositive("-1620.00")))
        #expect(error?.description == "drop-folder CSV: bad rate for USD/NGN at line 4: '-1620.00': a rate must be greater than zero, got -1620.00")
    }

    @Test func spreadsheetExportsAreRead() throws {
        let text = "\u{FEFF}\"Quote\",\"Base\",\"Rate\"\r\n\"ARS\",\"USD\",\"1185.50\"\r\n"
        let rates = try parser.parse(Data(text))
        #expect(rates.map(\.description) == ["USD/ARS 1185.5"])
    }

    @Test(arguments: [
        ("base,quote,rate\nUSD,ARS,1185.50\nUSD,NGN\n", ProviderError.malformed(.dropFolderCSV, detail: "2 values, the header has 3 columns", at: .line(3))),
        ("base,quote,rate\nUSD,ARS,1,185.50\n", .malformed(.dropFolderCSV, detail: "4 values, the header has 3 columns", at: .line(2))),
        ("base,quote,rate\n\n\nUSD,ARS,1185,50\n", .malformed(.dropFolderCSV, detail: "4 values, the header has 3 columns", at: .line(4))),
        ("base,quote,rate\nUSD,ARS,N/A\n", .badRate(.dropFolderCSV, pair: "USD/ARS", value: "N/A", at: .line(2), reason: .malformed("N/A"))),
        ("base,quote,rate\nUSD,ARS,0\n", .badRate(.dropFolderCSV, pair: "USD/ARS", value: "0", at: .line(2), reason: .notPositive("0"))),
        ("base,quote,rate\nUSD,AR5,1185.50\n", .unknownCurrency(.dropFolderCSV, code: "AR5", at: .line(2))),
        ("base,quote,rate\nUSD,usd,1\n", .samePair(.dropFolderCSV, currency: "USD", at: .line(2))),
        ("base,quote,rate,date\nUSD,ARS,1185.50,2026-11-20\nusd,ars,1190,2026-11-20\n", .duplicate(.dropFolderCSV, pair: "USD/ARS", date: "2026-11-20", at: .line(3))),
        ("base,quote,rate,date\nUSD,ARS,1185.50,20/11/2026\n", .badDate(.dropFolderCSV, value: "20/11/2026", at: .line(2))),
        ("# no header\nUSD,ARS,1185.50\n", .malformed(.dropFolderCSV, detail: "unknown column 'USD'; the header is base,quote,rate and optionally date", at: .line(2))),
        ("base,quote,date\nUSD,ARS,2026-11-20\n", .missingField(.dropFolderCSV, field: "rate", at: .line(1))),
        ("base,quote,rate,rate\nUSD,ARS,1,2\n", .malformed(.dropFolderCSV, detail: "column 'rate' appears twice", at: .line(1))),
        ("# only a comment\n\n", .missingField(.dropFolderCSV, field: "header line (base,quote,rate[,date])", at: nil)),
        ("base,quote,rate\n# nothing yet\n", .noRates(.dropFolderCSV)),
    ])
    func csvErrorsNameTheLine(text: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parseCSV(Data(text)) } == expected)
    }

    @Test(arguments: [
        (#"[{"base":"USD","quote":"ARS","rate":"1185.50"},{"base":"USD","quote":"NGN"}]"#, ProviderError.missingField(.dropFolderJSON, field: "rate", at: .index(1))),
        (#"[{"base":"USD","quote":"ARS","rate":true}]"#, .badRate(.dropFolderJSON, pair: "USD/ARS", value: "true", at: .index(0), reason: .malformed("true"))),
        (#"[{"base":"USD","quote":"ARS","rate":-3}]"#, .badRate(.dropFolderJSON, pair: "USD/ARS", value: "-3", at: .index(0), reason: .notPositive("-3"))),
        (#"[{"base":"USD","quote":"ARS","rate":"1,185.50"}]"#, .badRate(.dropFolderJSON, pair: "USD/ARS", value: "1,185.50", at: .index(0), reason: .malformed("1,185.50"))),
        (#"[{"base":"USD","quote":"ARS","rate":"1185.50","note":"blue"}]"#, .malformed(.dropFolderJSON, detail: "unknown key 'note' (keys are base, quote, rate, date)", at: .index(0))),
        (#"[{"base":1,"quote":"ARS","rate":"1185.50"}]"#, .malformed(.dropFolderJSON, detail: "'base' is a number, expected a string", at: .index(0))),
        (#"[{"base":"USD","quote":"ARS","rate":"1185.50","date":"2026-11-31"}]"#, .badDate(.dropFolderJSON, value: "2026-11-31", at: .index(0))),
        (#"[{"base":"USD","quote":"ARS","rate":"1185.50"}, "USD,ARS"]"#, .malformed(.dropFolderJSON, detail: "a string, expected an object", at: .index(1))),
        (#"{"base":"USD","quote":"ARS","rate":"1185.50"}"#, .notFormat(.dropFolderJSON, reason: #"the top level is an object, expected an array of {"base","quote","rate","date"} objects"#)),
        ("[]", .noRates(.dropFolderJSON)),
    ])
    func jsonErrorsNameTheIndex(json: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parseJSON(Data(json)) } == expected)
    }

    @Test func aNullDateIsNoDate() throws {
        let rates = try parser.parseJSON(Data(#"[{"base":"USD","quote":"ARS","rate":1185.5,"date":null}]"#))
        #expect(rates.first?.date == nil)
    }
}
