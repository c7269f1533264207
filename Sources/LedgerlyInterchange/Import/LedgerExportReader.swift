import FoundationEssentials
import LedgerlyFiles
import LedgerlyProtocol

/// Reads a `ledgerly export json` file incrementally: the header first, then the transactions
/// one at a time, so a million-transaction export is read in bounded memory (the file is never
/// held whole, nor its records).
///
/// The file is the JSON object `LedgerExport` writes (`opening`, one `transaction` per record,
/// `end`), but the reader does not depend on that layout: any JSON text of the same object works
/// (pretty-printed, members in any order, unknown members ignored as `JSONDecoder` would), as long
/// as `ledgerly` comes before `transactions`, which is what lets the records be checked against
/// the header as they come. Each value is found by scanning its brackets and strings, then decoded
/// (`record(_:decoder:)`) as the whole-file decoding with `JSONDecoder` read it.
public final class LedgerExportReader {
    /// Why the file cannot be read, naming where: a transaction by its position and line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// A transaction and where it is in the file.
    public struct Located: Sendable {
        public let record: TransactionRecord
        /// 1-based position in the `transactions` array.
        public let position: Int
        /// 1-based line on which the record starts.
        public let line: Int
        /// Length of the record's JSON text in the file.
        public let bytes: Int
    }

    /// nil when the text was given in memory (`init(data:)`).
    private let handle: PosixFile?
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    /// Next unread byte in `buffer`.
    private var cursor = 0
    private var atEndOfFile = false
    /// Lines before `buffer[0]`, and newlines counted in `buffer[..<countedUpTo]`.
    private var line = 1
    private var countedUpTo = 0
    /// Bytes of the file dropped from the front of `buffer`.
    private var dropped = 0
    private let decoder = JSONDecoder()

    private enum Stage { case start, members, transactions, finished }
    private var stage = Stage.start
    private var position = 0
    public private(set) var header: LedgerExport.Header?

    /// How far into the file the reader is, in bytes (for progress).
    public var bytesConsumed: Int { dropped + cursor }

    /// Opens `path` ("-" is standard input).
    public init(path: String, chunkSize: Int = 1 << 20) throws(Failure) {
        if path == "-" {
            handle = PosixFile.standardInput
        } else {
            do { handle = try PosixFile.reading(path) } catch { throw Failure(description: "cannot read \(path)") }
        }
        self.chunkSize = chunkSize
    }

    /// For tests: reads the text from memory.
    public init(data: Data) {
        handle = nil
        buffer = [UInt8](data)
        atEndOfFile = true
        chunkSize = 1 << 20
    }

    /// Reads up to the first transaction and returns the header (members after the transactions
    /// are read by `next()` once the records are done). Call once, first.
    public func readHeader() throws(Failure) -> LedgerExport.Header {
        guard stage == .start else { throw Failure(description: "the header was read already") }
        try expect(UInt8(ascii: "{"), "a JSON object")
        stage = .members
        try readMembers()
        guard let header else { throw Failure(description: "it has no member \"ledgerly\" (the header)") }
        return header
    }

    /// A transaction's JSON text, not decoded yet, and where it is in the file.
    public struct Raw: Sendable {
        public let json: Data
        public let position: Int
        public let line: Int

        /// Decodes and checks the record, naming its position and line when it is wrong.
        /// `decoder` reads only a record the byte reader refuses; a caller decoding many keeps one.
        public func decoded(with decoder: JSONDecoder = JSONDecoder()) throws(Failure) -> Located {
            do {
                return Located(record: try LedgerExportReader.record(json, decoder: decoder), position: position, line: line, bytes: json.count)
            } catch {
                throw Failure(description: "transaction \(position) (line \(line)): \(LedgerExportReader.describe(error))")
            }
        }
    }

    /// A record read by the byte reader the CLI reads export pages with (D261), which takes the
    /// shape the store and `export json` write; anything else it refuses is read by
    /// `JSONDecoder`, which then accepts it or says what is wrong, as before. `JSONDecoder` was
    /// most of the CLI's time in `import json` (D345).
    static func record(_ json: Data, decoder: JSONDecoder) throws -> TransactionRecord {
        if let record = try? TransactionExportCoding.decodeRecord([UInt8](json)) { return record }
        return try decoder.decode(TransactionRecord.self, from: json)
    }

    /// The next transaction; nil after the last one (the rest of the file is then read and checked).
    public func next() throws(Failure) -> Located? {
        try nextRaw()?.decoded(with: decoder)
    }

    /// The next transaction's text, to be decoded (`Raw.decoded`), perhaps on another thread;
    /// nil after the last one.
    public func nextRaw() throws(Failure) -> Raw? {
        while true {
            switch stage {
            case .start: throw Failure(description: "read the header first")
            case .finished: return nil
            case .members:
                try readMembers()
            case .transactions:
                guard let byte = try peekSignificant() else { throw Failure(description: "it ends inside the transactions (after transaction \(position)): the file is cut short") }
                if byte == UInt8(ascii: "]") {
                    cursor += 1
                    stage = .members
                    try afterMember()
                    continue
                }
                if position > 0 {
                    guard byte == UInt8(ascii: ",") else { throw unexpected(byte, "',' or ']' after transaction \(position)") }
                    cursor += 1
                    guard try peekSignificant() != nil else { throw Failure(description: "it ends inside the transactions (after transaction \(position)): the file is cut short") }
                }
                position += 1
                let startLine = currentLine()
                let range = try scanValue(what: "transaction \(position) (line \(startLine))")
                let json = buffer.withUnsafeBufferPointer { bytes in Data(bytes[range]) }
                return Raw(json: json, position: position, line: startLine)
            }
        }
    }

    /// Reads members until the transactions start or the object ends.
    private func readMembers() throws(Failure) {
        while stage == .members {
            guard let byte = try peekSignificant() else { throw Failure(description: "it ends before the closing '}': the file is cut short") }
            if byte == UInt8(ascii: "}") {
                cursor += 1
                guard try peekSignificant() == nil else { throw Failure(description: "line \(currentLine()): there is more after the export's closing '}'") }
                stage = .finished
                guard header != nil else { throw Failure(description: "it has no member \"ledgerly\" (the header)") }
                return
            }
            let nameRange = try scanValue(what: "a member name")
            guard buffer[nameRange.lowerBound] == UInt8(ascii: "\"") else { throw Failure(description: "line \(currentLine()): a member name must be a string") }
            let name: String
            do {
                name = try buffer.withUnsafeBufferPointer { bytes in try decoder.decode(String.self, from: Data(bytes[nameRange])) }
            } catch {
                throw Failure(description: "line \(currentLine()): a member name is not valid JSON")
            }
            try expect(UInt8(ascii: ":"), "':' after \"\(name)\"")
            switch name {
            case "ledgerly":
                guard header == nil else { throw Failure(description: "it has two headers (\"ledgerly\")") }
                let range = try scanValue(what: "the header")
                do {
                    header = try buffer.withUnsafeBufferPointer { bytes in try decoder.decode(LedgerExport.Header.self, from: Data(bytes[range])) }
                } catch {
                    throw Failure(description: "its header (\"ledgerly\"): \(Self.describe(error))")
                }
                try afterMember()
            case "transactions":
                guard header != nil else {
                    throw Failure(description: "its transactions come before its header (\"ledgerly\"); the export writes the header first")
                }
                guard position == 0 && stage == .members else { throw Failure(description: "it has two lists of transactions") }
                try expect(UInt8(ascii: "["), "'[' to start the transactions")
                stage = .transactions
                if try peekSignificant() == UInt8(ascii: "]") {
                    cursor += 1
                    stage = .members
                    try afterMember()
                }
                return
            default:
                _ = try scanValue(what: "member \"\(name)\"")
                try afterMember()
            }
        }
    }

    /// After a member's value: ',' (another follows) or the closing '}' (left for `readMembers`).
    private func afterMember() throws(Failure) {
        guard let byte = try peekSignificant() else { throw Failure(description: "it ends before the closing '}': the file is cut short") }
        if byte == UInt8(ascii: ",") {
            cursor += 1
        } else if byte != UInt8(ascii: "}") {
            throw unexpected(byte, "',' or '}' after a member")
        }
    }

    // MARK: Bytes

    private func expect(_ wanted: UInt8, _ what: String) throws(Failure) {
        guard let byte = try peekSignificant() else { throw Failure(description: "it ends where \(what) should be: the file is cut short") }
        guard byte == wanted else { throw unexpected(byte, what) }
        cursor += 1
    }

    private func unexpected(_ byte: UInt8, _ what: String) -> Failure {
        let shown = (32..<127).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        return Failure(description: "line \(currentLine()): expected \(what), found \(shown)")
    }

    /// The next byte that is not JSON whitespace (not consumed); nil at the end of the file.
    private func peekSignificant() throws(Failure) -> UInt8? {
        while true {
            while cursor < buffer.count {
                let byte = buffer[cursor]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { cursor += 1 } else { return byte }
            }
            guard try refill() else { return nil }
        }
    }

    /// Finds the end of the JSON value starting at `cursor` (after whitespace), reading more of
    /// the file as needed, and consumes it. Only brackets and strings are followed here; the
    /// decoder checks the value itself.
    /// `what` is worded only when the file is cut short (it was a fifth of finding a record).
    private func scanValue(what: @autoclosure () -> String) throws(Failure) -> Range<Int> {
        guard let first = try peekSignificant() else { throw Failure(description: "it ends where \(what()) should be: the file is cut short") }
        var index = cursor
        var depth = 0
        var inString = false
        var escaped = false
        let scalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
        while true {
            let found: Int? = buffer.withUnsafeBufferPointer { bytes in
                while index < bytes.count {
                    let byte = bytes[index]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == 0x5C {  // backslash
                            escaped = true
                        } else if byte == 0x22 {  // quote
                            inString = false
                            if depth == 0 { return index + 1 }
                        }
                    } else if scalar {
                        switch byte {
                        case 0x2C, 0x5D, 0x7D, 0x20, 0x0A, 0x0D, 0x09: return index  // , ] } whitespace
                        default: break
                        }
                    } else {
                        switch byte {
                        case 0x22: inString = true
                        case 0x7B, 0x5B: depth += 1  // { [
                        case 0x7D, 0x5D:  // } ]
                            depth -= 1
                            if depth == 0 { return index + 1 }
                        default: break
                        }
                    }
                    index += 1
                }
                return nil
            }
            if let end = found {
                let start = cursor
                cursor = end
                return start..<end
            }
            // `refill` moves the unread bytes to the front of the buffer.
            let before = cursor
            let more = try refill()
            index -= before - cursor
            guard more else {
                if scalar && buffer.count > cursor { return consumeScalarAtEnd() }
                throw Failure(description: "it ends inside \(what()): the file is cut short")
            }
        }
    }

    /// A scalar that runs to the very end of the file (only in a file that is not an export).
    private func consumeScalarAtEnd() -> Range<Int> {
        let range = cursor..<buffer.count
        cursor = buffer.count
        return range
    }

    /// Drops what was read and appends the next chunk of the file; false at its end.
    private func refill() throws(Failure) -> Bool {
        guard !atEndOfFile else { return false }
        if cursor > 0 {
            countNewlines(upTo: cursor)
            buffer.removeSubrange(0..<cursor)
            countedUpTo -= cursor
            dropped += cursor
            cursor = 0
        }
        let chunk: Data?
        do { chunk = try handle?.read(upToCount: chunkSize) } catch { throw Failure(description: "cannot read it: \(error.reason)") }
        guard let chunk, !chunk.isEmpty else {
            atEndOfFile = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    private func countNewlines(upTo end: Int) {
        guard end > countedUpTo else { return }
        var count = 0
        buffer.withUnsafeBufferPointer { bytes in
            for index in countedUpTo..<end where bytes[index] == 0x0A { count += 1 }
        }
        line += count
        countedUpTo = end
    }

    /// The line of the next unread byte.
    private func currentLine() -> Int {
        countNewlines(upTo: cursor)
        return line
    }

    /// A decoding error in words: what is wrong and at which field of the record.
    static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "\(at.isEmpty ? "" : at + ": ")member \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            let at = path(context.codingPath)
            return "\(at.isEmpty ? "" : at + ": ")\(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
