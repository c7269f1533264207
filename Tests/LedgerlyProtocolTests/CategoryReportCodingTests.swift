import Foundation
import LedgerlyCore
import LedgerlyProtocol
import Testing

/// `CategoryReportCoding` writes exactly what Foundation's `JSONEncoder` (the protocol's
/// `MessageCoding`) writes for a `CategoryReport` (D233).
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
        }
    }
}
