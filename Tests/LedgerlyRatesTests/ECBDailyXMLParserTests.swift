import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

@Suite struct ECBDailyXMLParserTests {
    let parser = ECBDailyXMLParser()

    @Test func readsTheRealDailyFile() throws {
        let rates = try parser.parse(Fixture.data("eurofxref-daily.xml"))
        #expect(rates.count == 29)
        #expect(rates.allSatisfy { $0.base == "EUR" && $0.date?.description == "2026-10-30" && $0.timestamp == nil })
        #expect(rates.first?.quote == "USD")
        #expect(rates.last?.quote == "ZAR")
    }

    /// Real ECB figures for 2026-10-30; the XML writes trailing zeros ("0.83380", "136.00"),
    /// which must not change the value.
    @Test(arguments: [("USD", "1.1172"), ("JPY", "175.68"), ("GBP", "0.8338"), ("ISK", "136"), ("IDR", "20275.17"), ("CHF", "0.9194"), ("ZAR", "18.6455")])
    func exactRealValues(quote: String, value: String) throws {
        let rates = try parser.parse(Fixture.data("eurofxref-daily.xml"))
        let found = try #require(rate(rates, "EUR", quote))
        #expect(found.rate.decimalString == value)
        #expect(found.rate.value == Decimal(string: value))
    }

    @Test func readsSeveralDaysFromThe90DayFile() throws {
        let rates = try parser.parse(Fixture.data("eurofxref-hist-90d.xml"))
        #expect(rates.count == 5 * 29)
        #expect(Set(rates.compactMap(\.date?.description)) == ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30"])
        #expect(rate(rates, "EUR", "USD", on: "2026-10-26")?.rate.decimalString == "1.1188")
        #expect(rate(rates, "EUR", "GBP", on: "2026-10-29")?.rate.decimalString == "0.83578")
        #expect(rate(rates, "EUR", "JPY", on: "2026-10-30")?.rate.decimalString == "175.68")
    }

    @Test func aCutOffDownloadIsMalformed() throws {
        let error = try providerError(file: "ecb-truncated.xml") { data throws(ProviderError) in try parser.parse(data) }
        guard case .malformed(.ecbXML, let detail, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(detail.contains("cut-off"))
    }

    @Test func aSyntaxErrorInsideIsNotCalledCutOff() {
        let broken = Self.document("<Cube time='2026-10-30'><Cube currency='USD' rate='1.1'/><<Cube currency='JPY' rate='175.68'/></Cube>")
        let error = providerError { () throws(ProviderError) in try parser.parse(broken) }
        guard case .malformed(.ecbXML, let detail, .line(4)) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(detail.hasPrefix("XML syntax error"))
    }

    @Test func aNegativeRateFailsTheWholeDocument() throws {
        let error = try providerError(file: "ecb-negative-rate.xml") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .badRate(.ecbXML, pair: "EUR/JPY", value: "-175.68", at: .line(10), reason: .notPositive("-175.68")))
        #expect(error?.description == "ECB XML: bad rate for EUR/JPY at line 10: '-175.68': a rate must be greater than zero, got -175.68")
    }

    @Test func aZeroRateFailsTheWholeDocument() throws {
        let error = try providerError(file: "ecb-zero-rate.xml") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .badRate(.ecbXML, pair: "EUR/GBP", value: "0.00000", at: .line(13), reason: .notPositive("0.00000")))
    }

    @Test func anHTMLErrorPageIsNamedAsSuch() throws {
        let error = try providerError(file: "html-error-page.html") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .htmlPage(.ecbXML, title: "502 Bad Gateway"))
        #expect(error?.description == "not ECB XML: got an HTML page (\"502 Bad Gateway\"); the provider is down or the address is wrong")
    }

    static let envelope = #"<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">"#

    static func document(_ cubes: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(envelope)\n<Cube>\n\(cubes)\n</Cube>\n</gesmes:Envelope>\n")
    }

    @Test(arguments: [
        ("<Cube time='2026-10-30'><Cube currency='USD'/></Cube>", ProviderError.missingField(.ecbXML, field: "rate", at: .line(4))),
        ("<Cube currency='USD' rate='1.1172'/>", .missingField(.ecbXML, field: "time (a rate outside any day)", at: .line(4))),
        ("<Cube time='2026-13-01'><Cube currency='USD' rate='1.1'/></Cube>", .badDate(.ecbXML, value: "2026-13-01", at: .line(4))),
        ("<Cube time='2026-10-30'><Cube currency='U$D' rate='1.1'/></Cube>", .unknownCurrency(.ecbXML, code: "U$D", at: .line(4))),
        ("<Cube time='2026-10-30'><Cube currency='USD' rate='1,1172'/></Cube>", .badRate(.ecbXML, pair: "EUR/USD", value: "1,1172", at: .line(4), reason: .malformed("1,1172"))),
        ("<Cube time='2026-10-30'><Cube currency='USD' rate='N/A'/></Cube>", .badRate(.ecbXML, pair: "EUR/USD", value: "N/A", at: .line(4), reason: .malformed("N/A"))),
        ("<Cube time='2026-10-30'><Cube currency='USD' rate='1.1'/><Cube currency='USD' rate='1.2'/></Cube>", .duplicate(.ecbXML, pair: "EUR/USD", date: "2026-10-30", at: .line(4))),
        ("<Cube time='2026-10-30'></Cube>", .noRates(.ecbXML)),
    ])
    func refusesBrokenStructure(cubes: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parse(Self.document(cubes)) } == expected)
    }

    @Test func theEnvelopeMustBeTheECBs() {
        let other = Data("<?xml version=\"1.0\"?>\n<rates><Cube time='2026-10-30'><Cube currency='USD' rate='1.1'/></Cube></rates>")
        let error = providerError { () throws(ProviderError) in try parser.parse(other) }
        #expect(error?.description == "not ECB XML: root element is <rates>, expected <gesmes:Envelope>")
        // Same element names in no namespace are not ECB data either.
        let unqualified = Data("<Envelope><Cube><Cube time='2026-10-30'><Cube currency='USD' rate='1.1'/></Cube></Cube></Envelope>")
        #expect(providerError { () throws(ProviderError) in try parser.parse(unqualified) } == .notFormat(.ecbXML, reason: "root element is <Envelope>, expected <gesmes:Envelope>"))
    }

    @Test func jsonIsNotXML() throws {
        let error = try providerError(file: "frankfurter-latest.json") { data throws(ProviderError) in try parser.parse(data) }
        #expect(error == .notFormat(.ecbXML, reason: "the document starts with '{', not with an XML tag"))
    }

    @Test func parsesConcurrently() async throws {
        let data = try Fixture.data("eurofxref-hist-90d.xml")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try ECBDailyXMLParser().parse(data).count } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 145, count: 16))
    }
}
