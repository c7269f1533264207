/// An RFC 4180 reader: `,`, `;` or tab separators, quoted fields with `""` escapes that may span
/// lines, CRLF, LF or lone CR line ends, a leading UTF-8 byte-order mark ignored and empty lines
/// skipped.
///
/// It hands out one record at a time (`next()`) so a caller can stop early (mapping detection
/// reads only the first records) and never holds more than the text and the current record;
/// `records(in:)` collects them all. It works on the UTF-8 bytes because every character it
/// looks for is ASCII, which is both correct for UTF-8 and several times faster than walking
/// `Character`s on a 100 MB file.
///
/// Every record knows the physical line it starts on, counting lines inside quoted fields and
/// lines skipped with `skipLines`, because errors must name the line shown in an editor.
///
/// Deliberately lenient where banks are sloppy and strict where a guess would be wrong: a quote
/// inside an unquoted field is kept as text (`5" screen`), spaces after a closing quote are
/// dropped, but other text after a closing quote and a quote never closed are errors.
public struct CSVReader: Sendable {
    private let bytes: [UInt8]
    private let delimiter: UInt8
    private var position: Int
    /// The physical line `position` is on.
    private var line = 1

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// - Parameter skipLines: physical lines to pass over before reading records (a bank's
    ///   preamble: account number, period). They are skipped as raw lines, not parsed, because
    ///   preambles rarely follow the CSV rules (a stray quote in an account name is common);
    ///   they still count toward the line numbers of the records after them.
    public init(text: String, delimiter: CSVDelimiter = .comma, skipLines: Int = 0) {
        self.init(bytes: Array(text.utf8), delimiter: delimiter, skipLines: skipLines)
    }

    /// Shares `bytes` (arrays are copy-on-write), so trying several delimiters or preamble
    /// lengths on one file does not copy it each time.
    init(bytes: [UInt8], delimiter: CSVDelimiter, skipLines: Int) {
        self.bytes = bytes
        self.delimiter = delimiter.byte
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for _ in 0..<max(0, skipLines) {
            guard position < bytes.count else { break }
            skipRestOfLine()
        }
    }

    /// Every record of `text`, in order.
    public static func records(in text: String, delimiter: CSVDelimiter = .comma, skipLines: Int = 0) throws(BankStatementError) -> [CSVRecord] {
        var reader = CSVReader(text: text, delimiter: delimiter, skipLines: skipLines)
        var records: [CSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// The next record, or nil at the end of the text.
    public mutating func next() throws(BankStatementError) -> CSVRecord? {
        // Empty lines are not records: a trailing newline or a blank separator line in a bank
        // export would otherwise become a one-field record that fails every column lookup.
        while position < bytes.count, bytes[position] == Self.lineFeed || bytes[position] == Self.carriageReturn {
            consumeLineEnd()
        }
        guard position < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        var buffer: [UInt8] = []
        while true {
            if position < bytes.count, bytes[position] == Self.quote {
                fields.append(try readQuotedField(into: &buffer, fieldNumber: fields.count + 1))
            } else {
                let start = position
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                    position += 1
                }
                fields.append(String(decoding: bytes[start..<position], as: UTF8.self))
            }
            guard position < bytes.count else { break }
            if bytes[position] == delimiter {
                position += 1
                continue
            }
            consumeLineEnd()
            break
        }
        return CSVRecord(line: startLine, fields: fields)
    }

    /// Reads a field that starts with a quote, leaving `position` on what follows it (a
    /// delimiter, a line end or the end of the text).
    private mutating func readQuotedField(into buffer: inout [UInt8], fieldNumber: Int) throws(BankStatementError) -> String {
        let openingLine = line
        buffer.removeAll(keepingCapacity: true)
        position += 1
        while true {
            guard position < bytes.count else {
                throw BankStatementError(line: openingLine, "a quoted field (field \(fieldNumber)) starts here but its closing quote is missing")
            }
            let byte = bytes[position]
            if byte == Self.quote {
                if position + 1 < bytes.count, bytes[position + 1] == Self.quote {
                    buffer.append(Self.quote)
                    position += 2
                    continue
                }
                position += 1
                break
            }
            if byte == Self.lineFeed {
                line += 1
            } else if byte == Self.carriageReturn, position + 1 >= bytes.count || bytes[position + 1] != Self.lineFeed {
                line += 1  // a lone CR; in CRLF the LF counts the line
            }
            buffer.append(byte)
            position += 1
        }
        while position < bytes.count, bytes[position] == Self.space || (bytes[position] == Self.tab && delimiter != Self.tab) {
            position += 1
        }
        if position < bytes.count {
            let byte = bytes[position]
            guard byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn else {
                throw BankStatementError(line: line, "unexpected text after the closing quote of field \(fieldNumber): a quote inside a quoted field must be doubled (\"\")")
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Steps over one CRLF, LF or lone CR at `position` and counts the line.
    private mutating func consumeLineEnd() {
        if bytes[position] == Self.carriageReturn, position + 1 < bytes.count, bytes[position + 1] == Self.lineFeed {
            position += 2
        } else {
            position += 1
        }
        line += 1
    }

    private mutating func skipRestOfLine() {
        while position < bytes.count, bytes[position] != Self.lineFeed, bytes[position] != Self.carriageReturn {
            position += 1
        }
        if position < bytes.count { consumeLineEnd() }
    }
}
