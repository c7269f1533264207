import LedgerlyCore

/// `report.categories` replies without Foundation's `JSONEncoder`: the same bytes
/// `MessageCoding.encoder()` writes for a `CategoryReport` (sorted keys, slashes unescaped, absent
/// optionals left out), with the writer helpers of `TransactionExportCoding` (D260).
///
/// Why: the reply is a table of a cell per category and month, thousands of strings at a million
/// transactions, and encoding it through `Encodable` was about a quarter of the store's time for
/// the report once the sums were fast (D233). The shape is small and fixed;
/// `CategoryReportCodingTests` compares the bytes with Foundation's on every shape and escape.
public enum CategoryReportCoding {
    /// The reply body as `MessageCoding.encode(report)` writes it.
    public static func encode(_ report: CategoryReport) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + report.months.count * 10 + report.categories.count * (96 + report.months.count * 12))
        out.append(ascii: "{")
        var comma = false
        if let base = report.baseCurrency { out.jsonKey("baseCurrency", comma: &comma); out.jsonString(base) }
        out.jsonKey("categories", comma: &comma)
        out.append(ascii: "[")
        for (index, row) in report.categories.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            append(row, to: &out)
        }
        out.append(ascii: "]")
        out.jsonKey("months", comma: &comma)
        appendStrings(report.months, to: &out)
        out.jsonKey("uncounted", comma: &comma)
        out.jsonInteger(Int64(report.uncounted))
        out.append(ascii: "}")
        return out
    }

    private static func append(_ row: CategoryReportRow, to out: inout [UInt8]) {
        out.append(ascii: "{")
        var comma = false
        if let amounts = row.byCurrency {
            out.jsonKey("byCurrency", comma: &comma)
            out.append(ascii: "[")
            for (index, amount) in amounts.enumerated() {
                if index > 0 { out.append(ascii: ",") }
                var inner = false
                out.append(ascii: "{")
                out.jsonKey("amount", comma: &inner); out.jsonString(amount.amount)
                out.jsonKey("currency", comma: &inner); out.jsonString(amount.currency)
                out.append(ascii: "}")
            }
            out.append(ascii: "]")
        }
        if let id = row.categoryId { out.jsonKey("categoryId", comma: &comma); out.jsonInteger(id) }
        out.jsonKey("depth", comma: &comma); out.jsonInteger(Int64(row.depth))
        out.jsonKey("kind", comma: &comma); out.jsonString(row.kind.rawValue)
        out.jsonKey("months", comma: &comma); appendStrings(row.months, to: &out)
        if let parent = row.parentId { out.jsonKey("parentId", comma: &comma); out.jsonInteger(parent) }
        out.jsonKey("path", comma: &comma); out.jsonString(row.path)
        out.jsonKey("total", comma: &comma); out.jsonString(row.total)
        out.append(ascii: "}")
    }

    private static func appendStrings(_ strings: [String], to out: inout [UInt8]) {
        out.append(ascii: "[")
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            out.jsonString(string)
        }
        out.append(ascii: "]")
    }
}
