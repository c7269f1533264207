import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

/// What every parser does with the documents a failing provider sends instead of data.
@Suite struct BadDocumentTests {
    enum Parser: String, CaseIterable, CustomTestStringConvertible {
        case ecbXML, ecbCSV, ratesAPI, coinGecko, dropFolder

        var testDescription: String { rawValue }

        var format: ProviderError.Format {
            switch self {
            case .ecbXML: .ecbXML
            case .ecbCSV: .ecbCSV
            case .ratesAPI: .ratesAPI
            case .coinGecko: .coinGecko
            case .dropFolder: .dropFolderCSV
            }
        }

        func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
            switch self {
            case .ecbXML: try ECBDailyXMLParser().parse(data)
            case .ecbCSV: try ECBHistoryCSVParser().parse(data)
            case .ratesAPI: try RatesAPIJSONParser().parse(data)
            case .coinGecko: try CoinGeckoParser(symbols: ["bitcoin": "BTC"]).parse(data)
            case .dropFolder: try DropFolderParser().parse(data)
            }
        }
    }

    @Test(arguments: Parser.allCases)
    func garbageIsNotText(parser: Parser) throws {
        let data = try Fixture.data("garbage.bin")
        #expect(providerError { () throws(ProviderError) in try parser.parse(data) } == .notFormat(parser.format, reason: "binary data (512 bytes), not text"))
    }

    @Test(arguments: Parser.allCases)
    func anHTMLErrorPageIsDetected(parser: Parser) throws {
        let data = try Fixture.data("html-error-page.html")
        #expect(providerError { () throws(ProviderError) in try parser.parse(data) } == .htmlPage(parser.format, title: "502 Bad Gateway"))
    }

    @Test(arguments: Parser.allCases, ["", " \n\r\n\t", "\u{FEFF}"])
    func nothingIsEmpty(parser: Parser, text: String) {
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(text)) } == .empty(parser.format))
    }

    @Test(arguments: [
        ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><TITLE>\n  Attention Required! | Cloudflare\n</TITLE>", "Attention Required! | Cloudflare"),
        ("<html><body>Service Unavailable</body></html>", nil),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>Captive portal — sign in</title></head></html>", "Captive portal — sign in"),
    ] as [(String, String?)])
    func htmlTitlesAreReported(page: String, title: String?) {
        for parser in Parser.allCases {
            #expect(providerError { () throws(ProviderError) in try parser.parse(Data(page)) } == .htmlPage(parser.format, title: title))
        }
    }

    /// JSON that merely mentions HTML in a message is still read as JSON.
    @Test func htmlInsideJSONIsNotAPage() {
        let json = #"{"message":"<html><title>x</title></html>"}"#
        #expect(providerError { () throws(ProviderError) in try RatesAPIJSONParser().parse(Data(json)) }
            == .providerReported(.ratesAPI, status: nil, message: "<html><title>x</title></html>"))
    }

    /// Each parser given another provider's good document refuses it rather than misreading it.
    @Test(arguments: [
        (Parser.ecbXML, "frankfurter-latest.json"), (.ecbCSV, "eurofxref-daily.xml"), (.ratesAPI, "eurofxref-daily.xml"),
        (.coinGecko, "eurofxref-hist-sample.csv"), (.ecbCSV, "frankfurter-latest.json"), (.ratesAPI, "dropfolder-parallel.json"),
        (.coinGecko, "frankfurter-latest.json"), (.dropFolder, "eurofxref-hist-sample.csv"), (.dropFolder, "frankfurter-latest.json"),
    ])
    func anotherProvidersDocumentIsRefused(parser: Parser, file: String) throws {
        let data = try Fixture.data(file)
        let error = providerError { () throws(ProviderError) in try parser.parse(data) }
        #expect(error != nil)
    }

    @Test func descriptionsReadAsSentences() {
        #expect(ProviderError.empty(.ratesAPI).description == "empty rates API JSON document: the provider sent nothing")
        #expect(ProviderError.notFormat(.ecbXML, reason: "root element is <html>").description == "not ECB XML: root element is <html>")
        #expect(ProviderError.unknownCurrency(.ecbCSV, code: "US$", at: .line(1)).description
            == "ECB CSV: 'US$' at line 1 is not a currency code (letters only, 1 to 20)")
        #expect(ProviderError.missingField(.dropFolderJSON, field: "rate", at: .index(2)).description
            == "drop-folder JSON: missing field 'rate' at entry at index 2")
        #expect(ProviderError.providerReported(.coinGecko, status: 429, message: "slow down").description
            == "CoinGecko JSON: the provider answered with error 429: slow down")
        #expect(ProviderError.malformed(.ecbXML, detail: "x", at: .line(3)).format == .ecbXML)
    }
}
