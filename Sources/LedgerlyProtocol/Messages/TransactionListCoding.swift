/// `tx.list` replies without Foundation's JSON coders, as `tx.export` pages are (D260, D347): the
/// same bytes `MessageCoding.encoder()` writes for a `TransactionListReply`, and a reader of that
/// shape for the CLI.
///
/// Why: a page of 50 records went through `JSONEncoder` in the store and `JSONDecoder` in the
/// CLI, milliseconds of every `ledgerly tx list` (D347). A reply the reader does not expect is an
/// error, and the caller then reads the frame with `JSONDecoder`, so a valid reply is never
/// refused because of this shortcut.
public enum TransactionListCoding {
    /// The reply body as `MessageCoding.encode(reply)` writes it (keys sorted: `next`, `total`,
    /// `transactions`; `next` left out on the last page).
    public static func encode(_ reply: TransactionListReply) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reply.transactions.count * 560 + 96)
        out.append(ascii: "{")
        var comma = false
        if let next = reply.next {
            out.jsonKey("next", comma: &comma)
            var inner = false
            out.append(ascii: "{")
            out.jsonKey("date", comma: &inner)
            out.jsonString(next.date)
            out.jsonKey("id", comma: &inner)
            out.jsonInteger(next.id)
            out.append(ascii: "}")
        }
        out.jsonKey("total", comma: &comma)
        out.jsonInteger(Int64(reply.total))
        TransactionExportCoding.appendTransactions(reply.transactions, to: &out, comma: &comma)
        out.append(ascii: "}")
        return out
    }

    /// The reply's body, when `frame` is an `.ok` reply of type `expectedType` answering `re` whose
    /// body has the expected shape; nil otherwise (read it with `JSONDecoder` then).
    public static func decodeReplyFrame(_ frame: [UInt8], expectedType: String, re: String?) -> TransactionListReply? {
        JSONByteReader.okBody(of: frame, expectedType: expectedType, re: re) { try $0.listReply() }
    }

    /// The body alone, as `JSONDecoder` reads a `TransactionListReply`.
    public static func decodeReply(_ bytes: [UInt8]) throws -> TransactionListReply {
        try JSONByteReader.whole(bytes) { try $0.listReply() }
    }
}

extension JSONByteReader {
    mutating func listReply() throws -> TransactionListReply {
        var transactions: [TransactionRecord]?
        var total: Int64?
        var next: TransactionListCursor?
        try object { reader, key in
            switch key {
            case "transactions": transactions = try reader.transactionRecords()
            case "total": total = try reader.integer()
            case "next":
                guard !(try reader.null()) else { return }
                var date: String?, id: Int64?
                try reader.object { reader, key in
                    switch key {
                    case "date": date = try reader.string()
                    case "id": id = try reader.integer()
                    default: try reader.skipValue()
                    }
                }
                guard let date, let id else { throw reader.failure("a cursor lacks a member") }
                next = TransactionListCursor(date: date, id: id)
            default: try reader.skipValue()
            }
        }
        guard let transactions, let total, let count = Int(exactly: total) else { throw failure("a list reply lacks a member") }
        return TransactionListReply(transactions: transactions, total: count, next: next)
    }
}
