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

/// Reading a reply envelope's header without decoding its body.
public enum EnvelopeScan {
    /// The envelope's `re` (top-level member) without reading the body into values: the body is
    /// stepped over. nil when the frame is not an object or `re` is absent or not a string.
    public static func replyTo(_ frame: [UInt8]) -> String? {
        frame.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            var replyTo: String?
            do {
                try reader.object { reader, key in
                    if key == "re" { replyTo = try reader.nullableString() } else { try reader.skipValue() }
                }
            } catch {
                return nil
            }
            return replyTo
        }
    }
}

/// Why a page could not be read by `TransactionExportCoding` (the caller falls back to `JSONDecoder`).
public struct JSONByteReaderError: Error, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "unexpected JSON at byte \(offset): \(reason)" }
}

// MARK: - Writer helpers

extension Array where Element == UInt8 {
    @inline(__always) mutating func append(ascii: Unicode.Scalar) { append(UInt8(ascii.value)) }

    @inline(__always) mutating func jsonKey(_ name: StaticString, comma: inout Bool) {
        if comma { append(ascii: ",") }
        comma = true
        append(ascii: "\"")
        name.withUTF8Buffer { append(contentsOf: $0) }
        // Byte by byte: appending a `String`'s UTF-8 view is a generic sequence append, and this
        // runs some twenty times per record of every page.
        append(ascii: "\"")
        append(ascii: ":")
    }

    mutating func jsonInteger(_ value: Int64) {
        if value < 0 { append(ascii: "-") }
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digits += 1 }
        var index = count + digits - 1
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        repeat {
            self[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    @inline(__always) mutating func jsonBoolean(_ value: Bool) {
        (value ? "true" as StaticString : "false").withUTF8Buffer { append(contentsOf: $0) }
    }

    /// A JSON string as Foundation's `JSONEncoder` writes it with `.withoutEscapingSlashes`:
    /// `"` and `\` escaped, `\b \t \n \f \r` short, other controls `\u00xx` (lower-case hex),
    /// everything else (U+007F and above included) as its UTF-8 bytes.
    mutating func jsonString(_ value: String) {
        append(ascii: "\"")
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if start < index { append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
                append(ascii: "\\")
                switch byte {
                case 0x22: append(ascii: "\"")
                case 0x5C: append(ascii: "\\")
                case 0x08: append(ascii: "b")
                case 0x09: append(ascii: "t")
                case 0x0A: append(ascii: "n")
                case 0x0C: append(ascii: "f")
                case 0x0D: append(ascii: "r")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    append(contentsOf: "u00".utf8)
                    append(hex[Int(byte >> 4)])
                    append(hex[Int(byte & 0x0F)])
                }
            }
            if start < bytes.count { append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
        }
        append(ascii: "\"")
    }
}

// MARK: - Reader

/// A strict reader of JSON bytes for the shapes above; anything unexpected throws.
struct JSONByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Not nil: `transactionRecords` notes where each record's bytes are (`decodeReplyFrameKeepingRecords`).
    var recordRanges: [Range<Int>]?

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The body of `frame` read by `body`, when the frame is a reply envelope of type
    /// `expectedType` answering `re` (any `re` when nil) and `body` reads it; nil otherwise (the
    /// caller then reads the frame with `JSONDecoder`: an error reply, another type, a shape not
    /// expected).
    static func okBody<Body>(of frame: [UInt8], expectedType: String, re: String?, _ body: (inout JSONByteReader) throws -> Body) -> Body? {
        frame.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            var read: Body?
            var type: String?
            var replyTo: String?
            do {
                try reader.object { reader, key in
                    switch key {
                    case "body": read = try body(&reader)
                    case "type": type = try reader.string()
                    case "re": replyTo = try reader.nullableString()
                    default: try reader.skipValue()
                    }
                }
                try reader.end()
            } catch {
                return nil
            }
            guard type == expectedType, re == nil || replyTo == re else { return nil }
            return read
        }
    }

    /// `bytes` read whole by `body`: one value and nothing after it but spaces.
    static func whole<Value>(_ bytes: [UInt8], _ body: (inout JSONByteReader) throws -> Value) throws -> Value {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            let value = try body(&reader)
            try reader.end()
            return value
        }
    }

    func failure(_ reason: String) -> JSONByteReaderError { JSONByteReaderError(offset: position, reason: reason) }

    @inline(__always) private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always) mutating func peek() throws -> UInt8 {
        skipSpace()
        guard position < bytes.count else { throw failure("unexpected end") }
        return bytes[position]
    }

    @inline(__always) private mutating func expect(_ byte: UInt8) throws {
        guard try peek() == byte else { throw failure("expected \(Character(Unicode.Scalar(byte)))") }
        position += 1
    }

    mutating func end() throws {
        skipSpace()
        guard position == bytes.count else { throw failure("text after the value") }
    }

    /// Calls `member` with each key; it must read (or skip) the value.
    mutating func object(_ member: (inout JSONByteReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return
            default: throw failure("expected , or }")
            }
        }
    }

    mutating func array(_ element: (inout JSONByteReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            try element(&self)
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw failure("expected , or ]")
            }
        }
    }

    /// Consumes `null` if it is next.
    mutating func null() throws -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ text: StaticString) throws {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure("unexpected end") }
        for index in 0..<count where bytes[position + index] != text.utf8Start[index] { throw failure("expected \(text)") }
        position += count
    }

    mutating func boolean() throws -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw failure("expected a boolean")
        }
    }

    /// An integer written as digits with an optional minus sign (what `JSONEncoder` writes for
    /// `Int64`); a fraction or exponent is refused, not rounded.
    mutating func integer() throws -> Int64 {
        _ = try peek()
        var negative = false
        if bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        let start = position
        var magnitude: UInt64 = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            guard !overflow1, !overflow2 else { throw failure("integer out of range") }
            magnitude = sum
            position += 1
        }
        guard position > start, position - start == 1 || bytes[start] != UInt8(ascii: "0") else { throw failure("expected an integer") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") { throw failure("not a plain integer") }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw failure("integer out of range") }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw failure("integer out of range") }
        return Int64(magnitude)
    }

    mutating func nullableInteger() throws -> Int64? { try null() ? nil : try integer() }
    mutating func nullableString() throws -> String? { try null() ? nil : try string() }

    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        var ascii = true
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                // ASCII is valid UTF-8 as it is, and `String(decoding:)` makes it without the
                // generic metadata look-ups `String(validating:)` pays on every call (a quarter
                // of an export's CPU in the CLI).
                if ascii { return String(decoding: text, as: UTF8.self) }
                guard let string = String(validating: text, as: UTF8.self) else { throw failure("invalid UTF-8") }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("control character in a string") }
            ascii = ascii && byte < 0x80
            position += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: scalars, as: UTF8.self) else { throw failure("invalid UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw failure("unterminated string") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800...0xDBFF).contains(value) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw failure("lone surrogate")
                        }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone surrogate") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(value) {
                        throw failure("lone surrogate")
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw failure("invalid escape") }
                    scalars.append(contentsOf: UTF8.encode(scalar)!)
                default: throw failure("invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("control character in a string") }
                scalars.append(byte)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("unterminated escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw failure("invalid escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Steps over a string without making it one (its content is not checked). The closing
    /// quote is found with `memchr`, which looks at many bytes at once: stepping over a page's
    /// records one byte at a time (to reach the envelope's `re`, written after the body) was
    /// most of the CLI's fetching thread in an export. A backslash before the quote starts an
    /// escape, so the search goes on past the escaped character.
    private mutating func skipString() throws {
        try expect(UInt8(ascii: "\""))
        guard let base = bytes.baseAddress else { throw failure("unterminated string") }
        while position < bytes.count {
            let rest = bytes.count - position
            guard let quote = memchr(base + position, Int32(UInt8(ascii: "\"")), rest) else { break }
            let quoteAt = position + (UnsafeRawPointer(quote) - UnsafeRawPointer(base + position))
            guard let backslash = memchr(base + position, Int32(UInt8(ascii: "\\")), quoteAt - position) else {
                position = quoteAt + 1
                return
            }
            position += (UnsafeRawPointer(backslash) - UnsafeRawPointer(base + position)) + 2
        }
        throw failure("unterminated string")
    }

    /// Steps over any value (members replies may gain, D4).
    mutating func skipValue() throws {
        switch try peek() {
        case UInt8(ascii: "{"):
            // Keys are stepped over too: making each a String was most of reading a page's `re`.
            position += 1
            if try peek() == UInt8(ascii: "}") { position += 1; return }
            while true {
                _ = try peek()
                try skipString()
                try expect(UInt8(ascii: ":"))
                try skipValue()
                switch try peek() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return
                default: throw failure("expected , or }")
                }
            }
        case UInt8(ascii: "["): try array { try $0.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try boolean()
        case UInt8(ascii: "n"): _ = try null()
        default: _ = try numberText()
        }
    }

    /// A number's characters as written, checked only loosely (stepping over a value, or a
    /// caller that reads the text itself, `SentJSON`).
    mutating func numberText() throws -> String {
        _ = try peek()
        let start = position
        // Tested byte by byte: `"+-.0123456789eE".utf8.contains` was a tenth of an export's
        // CPU in the CLI, which steps over every record's numbers to find the next page.
        while position < bytes.count {
            let byte = bytes[position]
            guard byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") else { break }
            position += 1
        }
        guard position > start else { throw failure("unexpected character") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

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
