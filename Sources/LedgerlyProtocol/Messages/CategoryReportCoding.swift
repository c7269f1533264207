import LedgerlyCore

/// `report.categories` replies without Foundation's JSON coders: the same bytes
/// `MessageCoding.encoder()` writes for a `CategoryReport` (sorted keys, slashes unescaped, absent
/// optionals left out), with the byte writer of `Envelope/JSONBytes/` (D260), and a reader
/// for the CLI, as `tx.list` pages have (D347, D388).
///
/// Why: the reply is a table of a cell per category and month, thousands of strings at a million
/// transactions, and encoding it through `Encodable` was a large share of the store's time for
/// the report once the sums were fast (D233); reading it through `Decodable` a large share of
/// `ledgerly report categories --monthly` (D388). The shape is small and
/// fixed; `CategoryReportCodingTests` compares the bytes with Foundation's on every shape and
/// escape, and what is read with what `JSONDecoder` reads. A reply the reader does not expect is
/// an error, and the CLI then reads the frame with `JSONDecoder`, so a valid reply is never
/// refused because of this shortcut.
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

    /// The reply's body, when `frame` is an `.ok` reply of type `expectedType` answering `re` whose
    /// body has the expected shape; nil otherwise (read it with `JSONDecoder` then).
    public static func decodeReplyFrame(_ frame: [UInt8], expectedType: String, re: String?) -> CategoryReport? {
        JSONByteReader.okBody(of: frame, expectedType: expectedType, re: re) { try $0.categoryReport() }
    }

    /// The body alone, as `JSONDecoder` reads a `CategoryReport`.
    public static func decodeReply(_ bytes: [UInt8]) throws -> CategoryReport {
        try JSONByteReader.whole(bytes) { try $0.categoryReport() }
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

extension JSONByteReader {
    mutating func categoryReport() throws -> CategoryReport {
        var baseCurrency: String?
        var months: [String]?
        var categories: [CategoryReportRow]?
        var uncounted: Int64?
        try object { reader, key in
            switch key {
            case "baseCurrency": baseCurrency = try reader.nullableString()
            case "months": months = try reader.strings()
            case "categories":
                var rows: [CategoryReportRow] = []
                try reader.array { rows.append(try $0.categoryReportRow()) }
                categories = rows
            case "uncounted": uncounted = try reader.integer()
            default: try reader.skipValue()
            }
        }
        guard let months, let categories, let uncounted, let count = Int(exactly: uncounted) else { throw failure("a category report lacks a member") }
        return CategoryReport(baseCurrency: baseCurrency, months: months, categories: categories, uncounted: count)
    }

    private mutating func categoryReportRow() throws -> CategoryReportRow {
        var categoryId: Int64?, parentId: Int64?
        var path: String?, kind: CategoryKind?, depth: Int64?, months: [String]?, total: String?
        var byCurrency: [CurrencyAmount]?
        try object { reader, key in
            switch key {
            case "categoryId": categoryId = try reader.nullableInteger()
            case "parentId": parentId = try reader.nullableInteger()
            case "path": path = try reader.string()
            case "kind":
                let text = try reader.string()
                guard let known = CategoryKind(rawValue: text) else { throw reader.failure("an unknown category kind") }
                kind = known
            case "depth": depth = try reader.integer()
            case "months": months = try reader.strings()
            case "total": total = try reader.string()
            case "byCurrency":
                guard !(try reader.null()) else { byCurrency = nil; return }
                var amounts: [CurrencyAmount] = []
                try reader.array { reader in
                    var currency: String?, amount: String?
                    try reader.object { reader, key in
                        switch key {
                        case "currency": currency = try reader.string()
                        case "amount": amount = try reader.string()
                        default: try reader.skipValue()
                        }
                    }
                    guard let currency, let amount else { throw reader.failure("an amount lacks a member") }
                    amounts.append(CurrencyAmount(currency: currency, amount: amount))
                }
                byCurrency = amounts
            default: try reader.skipValue()
            }
        }
        guard let path, let kind, let depth, let level = Int(exactly: depth), let months, let total else { throw failure("a category report row lacks a member") }
        return CategoryReportRow(categoryId: categoryId, parentId: parentId, path: path, kind: kind, depth: level, months: months, total: total, byCurrency: byCurrency)
    }

    /// An array of strings.
    mutating func strings() throws -> [String] {
        var values: [String] = []
        try array { values.append(try $0.string()) }
        return values
    }
}
