import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Testing

/// `CategoryReportCoding` writes exactly what Foundation's `JSONEncoder` (the protocol's
/// `MessageCoding`) writes for a `CategoryReport` (D233), and reads what `JSONDecoder` reads (D388).
@Suite struct CategoryReportCodingTests {
    static let reports: [CategoryReport] = [
        CategoryReport(baseCurrency: "EUR", months: ["2026-01", "2026-02"], categories: [
            CategoryReportRow(categoryId: 1, parentId: nil, path: "Food", kind: .expense, depth: 0, months: ["12.50", "-0.05"], total: "12.45",
                              byCurrency: [CurrencyAmount(currency: "EUR", amount: "10.00"), CurrencyAmount(currency: "JPY", amount: "500")]),
            CategoryReportRow(categoryId: 2, parentId: 1, path: "Food/Groceries", kind: .expense, depth: 1, months: ["0.00", "1.00"], total: "1.00", byCurrency: []),
            CategoryReportRow(categoryId: nil, parentId: nil, path: "uncategorized", kind: .income, depth: 0, months: ["3.00", "0.00"], total: "3.00", byCurrency: nil),
        ], uncounted: 7),
        CategoryReport(baseCurrency: nil, months: [], categories: [], uncounted: 0),
        CategoryReport(baseCurrency: nil, months: ["2026-03"], categories: [
            CategoryReportRow(categoryId: 9_223_372_036_854_775_807, parentId: -4, path: "", kind: .income, depth: 12, months: ["5"], total: "5", byCurrency: nil),
        ], uncounted: -1),
    ]

    @Test func writesWhatFoundationWrites() throws {
        for report in Self.reports {
            #expect(CategoryReportCoding.encode(report) == Array(try MessageCoding.encode(report)))
        }
    }

    /// Category names with every character `JSONEncoder` escapes, and some it does not.
    @Test func escapesNamesAsFoundationDoes() throws {
        var texts = (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        texts += ["\u{7F}", "\u{80}", "é", "e\u{301}", "\u{2028}", "€", "😀", "a/b", "\\/", "Café \"Zur Post\"\t1/2 \\ line\nnext"]
        for text in texts {
            let report = CategoryReport(baseCurrency: text, months: [text], categories: [
                CategoryReportRow(categoryId: 3, parentId: 1, path: "Food/" + text, kind: .expense, depth: 1, months: [text], total: text,
                                  byCurrency: [CurrencyAmount(currency: text, amount: text)]),
            ], uncounted: 0)
            #expect(CategoryReportCoding.encode(report) == Array(try MessageCoding.encode(report)), "\(text.unicodeScalars.map { $0.value })")
            #expect(try CategoryReportCoding.decodeReply(CategoryReportCoding.encode(report)) == report, "\(text.unicodeScalars.map { $0.value })")
        }
    }

    /// The CLI's reader gives what `JSONDecoder` gives, for the store's bytes and for the same
    /// reply written otherwise (spaces, other key order, escapes the store does not write, nulls
    /// for absent optionals, members it does not know); from a whole reply frame only when the
    /// frame is the `.ok` reply expected.
    @Test func readsWhatFoundationReads() throws {
        let header = try JSONDecoder().decode(EnvelopeHeader.self, from: Data(#"{"v":1,"id":"req-7","type":"report.categories","ts":"2026-11-21T12:00:00.000Z"}"#.utf8))
        for report in Self.reports {
            let bytes = CategoryReportCoding.encode(report)
            #expect(try CategoryReportCoding.decodeReply(bytes) == report)
            let frame = [UInt8](ReplyBuilder.ok(rawBody: Data(bytes), for: header))
            #expect(CategoryReportCoding.decodeReplyFrame(frame, expectedType: "report.categories.ok", re: "req-7") == report)
            #expect(CategoryReportCoding.decodeReplyFrame(frame, expectedType: "report.categories.ok", re: "another") == nil)
            #expect(CategoryReportCoding.decodeReplyFrame(frame, expectedType: "report.cashflow.ok", re: "req-7") == nil)
        }
        let written = #"""
            { "uncounted" : 2, "extra": {"a": [1, 2.5e3, null, true]}, "months": ["2026-01"], "baseCurrency": null,
              "categories": [ { "path": "Caf\u00e9 \/ \"Bar\"", "total": "1.00", "months": ["1.00"], "kind": "expense",
                                "depth": 0, "categoryId": null, "parentId": null, "byCurrency": null, "note": "x" },
                              { "path": "Food", "total": "2.00", "months": ["2.00"], "kind": "income", "depth": 1, "categoryId": 4,
                                "byCurrency": [ { "currency": "USD", "amount": "2.20", "rate": "1.1" } ] } ] }
            """#
        let foundation = try JSONDecoder().decode(CategoryReport.self, from: Data(written.utf8))
        #expect(try CategoryReportCoding.decodeReply(Array(written.utf8)) == foundation)
        #expect(foundation.categories.first?.path == "Café / \"Bar\"")
        // What `JSONDecoder` refuses, the reader refuses too (the CLI then reports `JSONDecoder`'s error).
        for refused in [#"{"months":[],"categories":[{"path":"a","total":"1","months":[],"kind":"transfer","depth":0}],"uncounted":0}"#,
                        #"{"months":[],"categories":[],"uncounted":1.5}"#, #"{"months":[],"categories":[]}"#,
                        #"{"months":[1],"categories":[],"uncounted":0}"#] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(CategoryReport.self, from: Data(refused.utf8)) }
            #expect(throws: (any Error).self) { try CategoryReportCoding.decodeReply(Array(refused.utf8)) }
        }
    }
}
