import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LedgerlyCore

/// The European Central Bank's reference rates in its XML format: `eurofxref-daily.xml` (one
/// day), `eurofxref-hist-90d.xml` and `eurofxref-hist.xml` (one `Cube time` per day, newest first).
///
/// ```
/// <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"
///                  xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
///   <Cube><Cube time='2026-10-30'><Cube currency='USD' rate='1.1172'/>…</Cube></Cube>
/// </gesmes:Envelope>
/// ```
///
/// Every rate is units of the currency per 1 EUR, so `base` is always "EUR". The parser checks
/// the envelope's namespaces, not just element names, so some other XML with a `Cube` in it is
/// not taken for ECB data. It throws on the first problem (see `ProviderError`): a zero or
/// negative rate, a rate outside a day, a cut-off download. No partial result is ever returned.
public struct ECBDailyXMLParser: Sendable {
    public static let base = "EUR"
    static let envelopeNamespace = "http://www.gesmes.org/xml/2002-08-01"
    static let cubeNamespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"

    public init() {}

    /// All rates in document order (days newest first as the ECB writes them, currencies in the
    /// ECB's order within a day).
    public func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.ecbXML
        let text = try ProviderDocument.text(data, format: format)
        if let first = ProviderDocument.firstSignificantByte(text), first != UInt8(ascii: "<") {
            throw .notFormat(format, reason: "the document starts with '\(String(UnicodeScalar(first)))', not with an XML tag")
        }
        let parser = XMLParser(data: text)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        let finished = parser.parse()
        // A wrong root element is the most useful thing to say about a document, whatever else
        // is wrong with it. Otherwise a syntax error wins over a content error: libxml2 reports
        // the half element of a cut-off download ("<Cube currency='GBP' ra") as a start tag,
        // and "missing rate" would hide the real cause. `parse()` can report success on a
        // cut-off document, so the parser's error and the reader's "root closed" flag are checked.
        if case .notFormat? = reader.failure, let failure = reader.failure { throw failure }
        if !finished || parser.parserError != nil || !reader.closedRoot {
            let lastLine = text.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } - (text.last == 0x0A ? 1 : 0)
            let cutOff = reader.openElements > 0 && parser.lineNumber >= lastLine
            let detail = cutOff ? "the document ends before its elements are closed (cut-off download?)"
                : "XML syntax error (parser code \(parser.parserError.map { ($0 as NSError).code } ?? 0))"
            throw .malformed(format, detail: detail, at: .line(parser.lineNumber))
        }
        if let failure = reader.failure { throw failure }
        guard !reader.rates.isEmpty else { throw .noRates(format) }
        return reader.rates
    }

    /// The `XMLParserDelegate`: a small state machine over the Cube nesting. It lives only for
    /// one `parse()` call on one thread, so it is not `Sendable` and needs no locking.
    private final class Reader: NSObject, XMLParserDelegate {
        var rates: [ProviderRate] = []
        var failure: ProviderError?
        var closedRoot = false
        /// Elements opened and not yet closed; above zero at the end means a cut-off document.
        private(set) var openElements = 0
        /// The day of the enclosing `Cube time`, if any.
        private var day: LedgerDate?
        /// For each open `Cube`, whether it is a `Cube time` (its end closes the day).
        private var cubeIsDay: [Bool] = []
        private var seenToday: Set<String> = []
        private let format = ProviderError.Format.ecbXML

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            openElements += 1
            guard failure == nil else { return }
            do throws(ProviderError) {
                if openElements == 1 {
                    guard elementName == "Envelope", namespaceURI == ECBDailyXMLParser.envelopeNamespace else {
                        throw .notFormat(format, reason: "root element is <\(qName ?? elementName)>, expected <gesmes:Envelope>")
                    }
                    return
                }
                guard elementName == "Cube", namespaceURI == ECBDailyXMLParser.cubeNamespace else { return }
                try cube(attributes, line: parser.lineNumber)
            } catch {
                // Only a foreign root stops the parse; other errors let it run to the end so a
                // syntax error further on (a cut-off download) can be reported instead.
                failure = error
                if case .notFormat = error { parser.abortParsing() }
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            if elementName == "Cube", namespaceURI == ECBDailyXMLParser.cubeNamespace, openElements > 1, let isDay = cubeIsDay.popLast(), isDay {
                day = nil
            }
            if openElements == 1 { closedRoot = true }
            openElements -= 1
        }

        private func cube(_ attributes: [String: String], line: Int) throws(ProviderError) {
            let location = ProviderError.Location.line(line)
            if let time = attributes["time"] {
                guard day == nil else { throw .malformed(format, detail: "a day (time='\(time)') inside another day", at: location) }
                day = try ProviderFields.date(time, format, at: location)
                seenToday = []
                cubeIsDay.append(true)
                return
            }
            cubeIsDay.append(false)
            guard let currency = attributes["currency"] else { return }  // the outer, plain <Cube>
            guard let day else { throw .missingField(format, field: "time (a rate outside any day)", at: location) }
            let quote = try ProviderFields.currency(currency, format, at: location)
            guard let rateText = attributes["rate"] else { throw .missingField(format, field: "rate", at: location) }
            let pair = "\(ECBDailyXMLParser.base)/\(quote)"
            let rate = try ProviderFields.rate(rateText, pair: pair, format, at: location)
            guard seenToday.insert(quote).inserted else { throw .duplicate(format, pair: pair, date: day.description, at: location) }
            rates.append(ProviderRate(base: ECBDailyXMLParser.base, quote: quote, rate: rate, date: day))
        }
    }
}
