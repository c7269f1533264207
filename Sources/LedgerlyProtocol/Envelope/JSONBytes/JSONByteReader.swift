#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LedgerlyCore

/// A strict reader of JSON bytes for the bulk paths' fixed shapes (export pages, the reply
/// envelope's header, a request frame `StrictJSON` accepted); anything unexpected throws. Each
/// shape lives beside its message, as an extension (docs/architecture.md, "JSON").
struct JSONByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
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
}
