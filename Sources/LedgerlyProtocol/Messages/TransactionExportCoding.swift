#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LedgerlyCore

/// `tx.export` pages without Foundation's JSON coders: the same bytes `MessageCoding.encoder()`
/// writes for a `TransactionExportReply` (sorted keys, slashes unescaped, absent optionals left
/// out), and a reader of exactly that shape (D260).
///
/// Why: a million records went through `JSONEncoder` in the store, `JSONDecoder` in the CLI and
/// `JSONEncoder` again for `export json`; together most of an export's 50–60 s
/// (docs/performance.md, "Exports"). The record's shape is fixed and small, so both directions
/// are written out by hand. `TransactionExportCodingTests` compares them with Foundation's coders
/// on every record shape and on every escape; a reply the reader does not expect (an unknown
/// number form, invalid UTF-8, a missing member) is an error, and the caller then reads the frame
/// with `JSONDecoder` as before, so a valid reply is never refused because of this shortcut.
public enum TransactionExportCoding {
    // MARK: Writing

    /// The reply body as `MessageCoding.encode(reply)` writes it.
    public static func encode(_ reply: TransactionExportReply) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reply.transactions.count * 560 + 64)
        out.append(ascii: "{")
        var comma = false
        if let date = reply.nextAfterDate {
            out.jsonKey("nextAfterDate", comma: &comma)
            out.jsonString(date)
        }
        if let next = reply.nextAfterId {
            out.jsonKey("nextAfterId", comma: &comma)
            out.jsonInteger(next)
        }
        if let total = reply.total {
            out.jsonKey("total", comma: &comma)
            out.jsonInteger(Int64(total))
        }
        appendTransactions(reply.transactions, to: &out, comma: &comma)
        out.append(ascii: "}")
        return out
    }

    /// The member `"transactions":[…]` of a reply body (an export page, a `tx.list` reply).
    static func appendTransactions(_ records: [TransactionRecord], to out: inout [UInt8], comma: inout Bool) {
        out.jsonKey("transactions", comma: &comma)
        out.append(ascii: "[")
        var snapshots = SnapshotBytes()
        for (index, record) in records.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            append(record, to: &out, snapshots: &snapshots)
        }
        out.append(ascii: "]")
    }

    /// Rate snapshots already written in this page, as their bytes: a page spans a few days, so
    /// its thousands of records share a handful of snapshots (the very same values, which
    /// compare at once), and writing one was a third of a record's encoding.
    public struct SnapshotBytes {
        private var recent: [(snapshot: RateSnapshot, bytes: [UInt8])] = []

        public init() {}

        mutating func append(_ snapshot: RateSnapshot, to out: inout [UInt8]) {
            if let known = recent.first(where: { $0.snapshot == snapshot }) { return out.append(contentsOf: known.bytes) }
            var bytes: [UInt8] = []
            TransactionExportCoding.append(snapshot, to: &bytes)
            out.append(contentsOf: bytes)
            if recent.count == 8 { recent.removeFirst() }
            recent.append((snapshot, bytes))
        }
    }

    /// One record as `MessageCoding.encoder()` (and `LedgerExport`'s encoder) writes it.
    public static func append(_ record: TransactionRecord, to out: inout [UInt8]) {
        var snapshots = SnapshotBytes()
        append(record, to: &out, snapshots: &snapshots)
    }

    /// The same, writing the record's rate snapshots through `snapshots` (one per page or file).
    public static func append(_ record: TransactionRecord, to out: inout [UInt8], snapshots: inout SnapshotBytes) {
        out.append(ascii: "{")
        var comma = false
        out.jsonKey("amount", comma: &comma); out.jsonString(record.amount)
        if let value = record.attachmentPath { out.jsonKey("attachmentPath", comma: &comma); out.jsonString(value) }
        if let value = record.baseAmount { out.jsonKey("baseAmount", comma: &comma); out.jsonString(value) }
        if let value = record.baseConversion { out.jsonKey("baseConversion", comma: &comma); snapshots.append(value, to: &out) }
        if let value = record.baseCurrency { out.jsonKey("baseCurrency", comma: &comma); out.jsonString(value) }
        if let value = record.categoryId { out.jsonKey("categoryId", comma: &comma); out.jsonInteger(value) }
        if let value = record.conversion { out.jsonKey("conversion", comma: &comma); snapshots.append(value, to: &out) }
        out.jsonKey("createdAt", comma: &comma); out.jsonString(record.createdAt)
        out.jsonKey("currency", comma: &comma); out.jsonString(record.currency)
        out.jsonKey("date", comma: &comma); out.jsonString(record.date)
        out.jsonKey("id", comma: &comma); out.jsonInteger(record.id)
        if let value = record.importId { out.jsonKey("importId", comma: &comma); out.jsonString(value) }
        if let value = record.importKey { out.jsonKey("importKey", comma: &comma); out.jsonString(value) }
        out.jsonKey("kind", comma: &comma); out.jsonString(record.kind.rawValue)
        if let value = record.notes { out.jsonKey("notes", comma: &comma); out.jsonString(value) }
        out.jsonKey("splits", comma: &comma)
        out.append(ascii: "[")
        for (index, split) in record.splits.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            var inner = false
            out.append(ascii: "{")
            out.jsonKey("amount", comma: &inner); out.jsonString(split.amount)
            out.jsonKey("categoryId", comma: &inner); out.jsonInteger(split.categoryId)
            if let memo = split.memo { out.jsonKey("memo", comma: &inner); out.jsonString(memo) }
            out.append(ascii: "}")
        }
        out.append(ascii: "]")
        out.jsonKey("tags", comma: &comma)
        out.append(ascii: "[")
        for (index, tag) in record.tags.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            out.jsonString(tag)
        }
        out.append(ascii: "]")
        if let transfer = record.transfer {
            out.jsonKey("transfer", comma: &comma)
            var inner = false
            out.append(ascii: "{")
            out.jsonKey("counterpartyTransactionId", comma: &inner); out.jsonInteger(transfer.counterpartyTransactionId)
            out.jsonKey("counterpartyWalletId", comma: &inner); out.jsonInteger(transfer.counterpartyWalletId)
            out.append(ascii: "}")
        }
        out.jsonKey("updatedAt", comma: &comma); out.jsonString(record.updatedAt)
        out.jsonKey("walletAmount", comma: &comma); out.jsonString(record.walletAmount)
        out.jsonKey("walletId", comma: &comma); out.jsonInteger(record.walletId)
        out.append(ascii: "}")
    }

    /// A snapshot as `MessageCoding.encode` writes it, as text: how a transaction keeps its rates
    /// in the database (`TransactionConversion.json`), without `JSONEncoder` (D359).
    public static func json(_ snapshot: RateSnapshot) -> String {
        var bytes: [UInt8] = []
        append(snapshot, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(_ snapshot: RateSnapshot, to out: inout [UInt8]) {
        out.append(ascii: "{")
        var comma = false
        out.jsonKey("asOf", comma: &comma); out.jsonString(snapshot.asOf)
        out.jsonKey("base", comma: &comma); out.jsonString(snapshot.base)
        if let legs = snapshot.legs {
            out.jsonKey("legs", comma: &comma)
            out.append(ascii: "[")
            for (index, leg) in legs.enumerated() {
                if index > 0 { out.append(ascii: ",") }
                var inner = false
                out.append(ascii: "{")
                out.jsonKey("base", comma: &inner); out.jsonString(leg.base)
                out.jsonKey("inverted", comma: &inner); out.jsonBoolean(leg.inverted)
                out.jsonKey("quote", comma: &inner); out.jsonString(leg.quote)
                out.jsonKey("rate", comma: &inner); out.jsonString(leg.rate)
                out.append(ascii: "}")
            }
            out.append(ascii: "]")
        }
        out.jsonKey("override", comma: &comma); out.jsonBoolean(snapshot.override)
        if let value = snapshot.profileId { out.jsonKey("profileId", comma: &comma); out.jsonInteger(value) }
        if let value = snapshot.profileName { out.jsonKey("profileName", comma: &comma); out.jsonString(value) }
        out.jsonKey("quote", comma: &comma); out.jsonString(snapshot.quote)
        out.jsonKey("rate", comma: &comma); out.jsonString(snapshot.rate)
        out.jsonKey("source", comma: &comma); out.jsonString(snapshot.source)
        out.jsonKey("stale", comma: &comma); out.jsonBoolean(snapshot.stale)
        out.append(ascii: "}")
    }

    // MARK: Reading

    /// The reply's body, when `frame` is an `.ok` reply of type `expectedType` answering `re` whose
    /// body has exactly the expected shape; nil otherwise (read it with `JSONDecoder` then: an
    /// error reply, another type, or anything this reader does not expect).
    public static func decodeReplyFrame(_ frame: [UInt8], expectedType: String, re: String?) -> TransactionExportReply? {
        JSONByteReader.okBody(of: frame, expectedType: expectedType, re: re) { try $0.exportReply() }
    }

    /// `decodeReplyFrame`, and where each record's own bytes are in `frame`: what `append` wrote
    /// for it in the store, which is what `export json` writes for it too (D366).
    public static func decodeReplyFrameKeepingRecords(_ frame: [UInt8], expectedType: String, re: String?) -> (reply: TransactionExportReply, records: RecordBytes)? {
        JSONByteReader.okBody(of: frame, expectedType: expectedType, re: re) { reader in
            reader.recordRanges = []
            let reply = try reader.exportReply()
            let ranges = reader.recordRanges ?? []
            guard ranges.count == reply.transactions.count else { throw reader.failure("records and their bytes disagree") }
            return (reply, RecordBytes(frame: frame, ranges: ranges))
        }
    }

    /// A page's records as the store wrote them: its frame, and where each record is in it.
    public struct RecordBytes: Sendable {
        public let frame: [UInt8]
        public let ranges: [Range<Int>]
    }

    /// Where the page after this one starts (`nextAfterId`, `nextAfterDate`), read with the
    /// records stepped over, when `frame` is an `.ok` reply of `expectedType` answering `re`; nil
    /// otherwise. An export asks for the next page with it before it reads this one, so the
    /// store makes the next page while the CLI reads and writes this one (D344).
    public static func nextPage(_ frame: [UInt8], expectedType: String, re: String?) -> (afterId: Int64?, afterDate: String?)? {
        JSONByteReader.okBody(of: frame, expectedType: expectedType, re: re) { reader in
            var afterId: Int64?, afterDate: String?, hasRecords = false
            try reader.object { reader, key in
                switch key {
                case "nextAfterId": afterId = try reader.nullableInteger()
                case "nextAfterDate": afterDate = try reader.nullableString()
                case "transactions": hasRecords = true; try reader.skipValue()
                default: try reader.skipValue()
                }
            }
            guard hasRecords else { throw reader.failure("no transactions") }
            return (afterId, afterDate)
        }
    }

    /// The body alone (`{"transactions":[…],…}`), as `JSONDecoder` reads a `TransactionExportReply`.
    public static func decodeReply(_ bytes: [UInt8]) throws -> TransactionExportReply {
        try JSONByteReader.whole(bytes) { try $0.exportReply() }
    }

    /// One record, as `JSONDecoder` reads a `TransactionRecord`.
    public static func decodeRecord(_ bytes: [UInt8]) throws -> TransactionRecord {
        try JSONByteReader.whole(bytes) { try $0.transactionRecord() }
    }
}

extension JSONByteReader {
    // MARK: The export's shapes

    mutating func exportReply() throws -> TransactionExportReply {
        var transactions: [TransactionRecord]?
        var nextAfterId: Int64?
        var nextAfterDate: String?
        var total: Int?
        try object { reader, key in
            switch key {
            case "transactions": transactions = try reader.transactionRecords()
            case "nextAfterId": nextAfterId = try reader.nullableInteger()
            case "nextAfterDate": nextAfterDate = try reader.nullableString()
            case "total": total = try reader.nullableInteger().map { Int($0) }
            default: try reader.skipValue()
            }
        }
        guard let transactions else { throw failure("no transactions") }
        return TransactionExportReply(transactions: transactions, nextAfterId: nextAfterId, total: total, nextAfterDate: nextAfterDate)
    }

    /// An array of records (an export page's, a `tx.list` reply's).
    mutating func transactionRecords() throws -> [TransactionRecord] {
        var records: [TransactionRecord] = []
        try array { reader in
            guard reader.recordRanges != nil else { return records.append(try reader.transactionRecord()) }
            _ = try reader.peek()
            let start = reader.position
            records.append(try reader.transactionRecord())
            reader.recordRanges?.append(start..<reader.position)
        }
        return records
    }

    mutating func transactionRecord() throws -> TransactionRecord {
        var id: Int64?, kind: TransactionKind?, walletId: Int64?, amount: String?, currency: String?
        var categoryId: Int64?, notes: String?, date: String?, tags: [String]?, attachmentPath: String?
        var transfer: TransferLink?, splits: [SplitPart]?, walletAmount: String?, baseAmount: String?, baseCurrency: String?
        var conversion: RateSnapshot?, baseConversion: RateSnapshot?, createdAt: String?, updatedAt: String?
        var importKey: String?, importId: String?
        // Each key is told by its length first: a record has twenty members, and comparing each
        // key with the cases one by one was a tenth of reading a page. A wrong length would leave
        // its member unread: `TransactionExportCodingTests` reads back records with every member.
        try object { reader, key in
            switch (key.utf8.count, key) {
            case (2, "id"): id = try reader.integer()
            case (4, "kind"):
                let raw = try reader.string()
                guard let value = TransactionKind(rawValue: raw) else { throw reader.failure("unknown kind") }
                kind = value
            case (8, "walletId"): walletId = try reader.integer()
            case (6, "amount"): amount = try reader.string()
            case (8, "currency"): currency = try reader.string()
            case (10, "categoryId"): categoryId = try reader.nullableInteger()
            case (5, "notes"): notes = try reader.nullableString()
            case (4, "date"): date = try reader.string()
            case (4, "tags"):
                var values: [String] = []
                try reader.array { values.append(try $0.string()) }
                tags = values
            case (14, "attachmentPath"): attachmentPath = try reader.nullableString()
            case (8, "transfer"): transfer = try reader.null() ? nil : try reader.transferLink()
            case (6, "splits"):
                var values: [SplitPart] = []
                try reader.array { values.append(try $0.splitPart()) }
                splits = values
            case (12, "walletAmount"): walletAmount = try reader.string()
            case (10, "baseAmount"): baseAmount = try reader.nullableString()
            case (12, "baseCurrency"): baseCurrency = try reader.nullableString()
            case (10, "conversion"): conversion = try reader.null() ? nil : try reader.rateSnapshot()
            case (14, "baseConversion"): baseConversion = try reader.null() ? nil : try reader.rateSnapshot()
            case (9, "createdAt"): createdAt = try reader.string()
            case (9, "updatedAt"): updatedAt = try reader.string()
            case (9, "importKey"): importKey = try reader.nullableString()
            case (8, "importId"): importId = try reader.nullableString()
            default: try reader.skipValue()
            }
        }
        guard let id, let kind, let walletId, let amount, let currency, let date, let tags, let splits, let walletAmount,
              let createdAt, let updatedAt else { throw failure("a transaction lacks a required member") }
        return TransactionRecord(
            id: id, kind: kind, walletId: walletId, amount: amount, currency: currency, categoryId: categoryId, notes: notes, date: date,
            tags: tags, attachmentPath: attachmentPath, transfer: transfer, splits: splits, walletAmount: walletAmount,
            baseAmount: baseAmount, baseCurrency: baseCurrency, conversion: conversion, baseConversion: baseConversion,
            createdAt: createdAt, updatedAt: updatedAt, importKey: importKey, importId: importId)
    }

    private mutating func transferLink() throws -> TransferLink {
        var wallet: Int64?, transaction: Int64?
        try object { reader, key in
            switch key {
            case "counterpartyWalletId": wallet = try reader.integer()
            case "counterpartyTransactionId": transaction = try reader.integer()
            default: try reader.skipValue()
            }
        }
        guard let wallet, let transaction else { throw failure("a transfer lacks a member") }
        return TransferLink(counterpartyWalletId: wallet, counterpartyTransactionId: transaction)
    }

    private mutating func splitPart() throws -> SplitPart {
        var amount: String?, categoryId: Int64?, memo: String?
        try object { reader, key in
            switch key {
            case "amount": amount = try reader.string()
            case "categoryId": categoryId = try reader.integer()
            case "memo": memo = try reader.nullableString()
            default: try reader.skipValue()
            }
        }
        guard let amount, let categoryId else { throw failure("a split lacks a member") }
        return SplitPart(amount: amount, categoryId: categoryId, memo: memo)
    }

    private mutating func rateSnapshot() throws -> RateSnapshot {
        var base: String?, quote: String?, rate: String?, profileId: Int64?, profileName: String?, source: String?, asOf: String?
        var override: Bool?, stale: Bool?, legs: [RateSnapshotLeg]?
        try object { reader, key in
            switch key {
            case "base": base = try reader.string()
            case "quote": quote = try reader.string()
            case "rate": rate = try reader.string()
            case "profileId": profileId = try reader.nullableInteger()
            case "profileName": profileName = try reader.nullableString()
            case "source": source = try reader.string()
            case "asOf": asOf = try reader.string()
            case "override": override = try reader.boolean()
            case "stale": stale = try reader.boolean()
            case "legs":
                if try reader.null() { legs = nil; return }
                var values: [RateSnapshotLeg] = []
                try reader.array { values.append(try $0.rateSnapshotLeg()) }
                legs = values
            default: try reader.skipValue()
            }
        }
        guard let base, let quote, let rate, let source, let asOf, let override, let stale else { throw failure("a rate snapshot lacks a member") }
        return RateSnapshot(base: base, quote: quote, rate: rate, profileId: profileId, profileName: profileName, source: source,
                            asOf: asOf, override: override, stale: stale, legs: legs)
    }

    private mutating func rateSnapshotLeg() throws -> RateSnapshotLeg {
        var base: String?, quote: String?, rate: String?, inverted: Bool?
        try object { reader, key in
            switch key {
            case "base": base = try reader.string()
            case "quote": quote = try reader.string()
            case "rate": rate = try reader.string()
            case "inverted": inverted = try reader.boolean()
            default: try reader.skipValue()
            }
        }
        guard let base, let quote, let rate, let inverted else { throw failure("a rate leg lacks a member") }
        return RateSnapshotLeg(base: base, quote: quote, rate: rate, inverted: inverted)
    }
}
