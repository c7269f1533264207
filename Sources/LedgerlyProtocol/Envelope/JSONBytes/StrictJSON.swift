import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import LedgerlyCore

/// The strict grammar of a request frame (PROTOCOL.md §2), checked in one pass over its bytes
/// before anything else reads it: RFC 8259 JSON in UTF-8 (no byte order mark, no UTF-16 or
/// UTF-32), a top-level object, no trailing commas or other leniencies, at most
/// `maximumDepth` levels of nesting. Foundation's parsers accept more than that (trailing
/// commas, UTF-16/32, duplicate member names: one keeps the first, the other the last), so the
/// services would otherwise each read a frame their own way (docs/decisions.md, D92).
///
/// A syntax problem stops the scan (`SyntaxError`: the frame is not JSON). The rest is
/// reported once the whole frame has been read: the first member name that appears twice in
/// an object, and the first value the protocol refuses (a string with U+0000, a number with a
/// fraction or an exponent), each with the path of the value at fault. Paths are kept cheaply
/// (per level, the byte range of the current member name or the array index) and spelt out only
/// when there is something to report.
public enum StrictJSON {
    /// The deepest nesting accepted: the envelope is level 1, `body` level 2.
    public static let maximumDepth = 64

    /// Why a frame is not JSON at all.
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        /// The byte offset where the problem was found.
        public var offset: Int
        public var description: String { "\(reason) (byte \(offset))" }

        public init(reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
    }

    /// A member name that appears twice in one object (after escapes are decoded; names that
    /// Swift's `String` compares equal, canonically equivalent ones, count as the same name).
    public struct Duplicate: Equatable, Sendable {
        /// The member's name as sent (escapes decoded).
        public var name: String
        /// The path of the duplicated member: `type`, `body.splits[1].amount`.
        public var path: String
        /// The path of the object holding it: `""` for the envelope, `body.splits[1]`.
        public var parent: String

        public init(name: String, path: String, parent: String) {
            self.name = name
            self.path = path
            self.parent = parent
        }
    }

    /// A value a protocol frame must not contain.
    public struct ValueProblem: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// A string (value or member name) containing U+0000.
            case nulCharacter
            /// A number with a fraction or an exponent (`1.0`, `1e2`): numbers are integers.
            case notAnInteger
            /// An integer outside -2^63 ... 2^63-1.
            case outOfRange
        }

        public var kind: Kind
        /// The path of the value at fault (of the member, for a member name).
        public var path: String

        public init(kind: Kind, path: String) {
            self.kind = kind
            self.path = path
        }
    }

    /// What a frame that is JSON tells beyond that.
    public struct Report: Sendable {
        /// The top-level `id` when it is a string and appears once, exactly as sent.
        public var id: String?
        /// The first duplicated member name, in byte order.
        public var duplicate: Duplicate?
        /// The first refused value, in byte order.
        public var valueProblem: ValueProblem?
    }

    /// Checks a frame; throws if it is not JSON, otherwise reports what else it found.
    public static func check(_ frame: Data) throws(SyntaxError) -> Report {
        let result: Result<Report, SyntaxError> = frame.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else {
                return .failure(SyntaxError(reason: "the frame is empty", offset: 0))
            }
            var scanner = Scanner(bytes: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
            do throws(SyntaxError) {
                try scanner.run()
                return .success(scanner.report)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension StrictJSON {
    /// One container being read: what the path needs and where its member names are kept.
    private struct Level {
        var isObject: Bool
        /// For an array, the index of the current element.
        var index: Int = 0
        /// For an object, the current member name's bytes (between the quotes, escapes undecoded).
        var keyStart: Int = 0
        var keyEnd: Int = 0
        /// For an object, where its member names start in `Scanner.keys`, and its hash table
        /// once it has many members (an index into `Scanner.tables`, or -1).
        var keysBase: Int = 0
        var table: Int = -1
    }

    private struct Key {
        var hash: UInt64
        var start: Int
        var end: Int
        /// Plain ASCII without escapes: its bytes are its name.
        var plain: Bool
    }

    /// Objects with more members than this get a hash table; smaller ones are searched in a line.
    private static let linearKeys = 16

    private struct Scanner {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        var levels: [Level] = []
        var keys: [Key] = []
        var tables: [[UInt64: [Int]]] = []
        var report = Report(id: nil, duplicate: nil, valueProblem: nil)
        var idCount = 0

        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
            levels.reserveCapacity(maximumDepth)
            keys.reserveCapacity(64)
        }

        // MARK: Structure

        mutating func run() throws(SyntaxError) {
            try checkEncoding()
            skipWhitespace()
            guard position < count, bytes[position] == UInt8(ascii: "{") else {
                throw fail(position < count ? "the frame is not a JSON object" : "the frame holds only whitespace")
            }
            try object(depth: 1)
            skipWhitespace()
            guard position == count else { throw fail("there is more after the JSON object") }
            if idCount != 1 { report.id = nil }
        }

        /// Names the encoding when a frame is plainly not UTF-8, before the grammar would
        /// complain about its first byte.
        func checkEncoding() throws(SyntaxError) {
            let first = bytes[0]
            if count >= 3, first == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                throw SyntaxError(reason: "the frame starts with a byte order mark (U+FEFF); frames are UTF-8 without one", offset: 0)
            }
            if count >= 2, (first == 0xFE && bytes[1] == 0xFF) || (first == 0xFF && bytes[1] == 0xFE) {
                throw SyntaxError(reason: "the frame starts with a UTF-16 or UTF-32 byte order mark; frames are UTF-8", offset: 0)
            }
            if count >= 4, first == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF {
                throw SyntaxError(reason: "the frame starts with a UTF-32 byte order mark; frames are UTF-8", offset: 0)
            }
            if count >= 2, first == 0 || bytes[1] == 0 {
                throw SyntaxError(reason: "the frame looks like UTF-16 or UTF-32 (it has zero bytes); frames are UTF-8", offset: first == 0 ? 0 : 1)
            }
        }

        func fail(_ reason: String) -> SyntaxError {
            SyntaxError(reason: reason, offset: position)
        }

        mutating func skipWhitespace() {
            while position < count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) {
            guard position < count else { throw fail("the frame ends where a value should be") }
            switch bytes[position] {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""):
                let string = try self.string()
                if string.hasNUL { noteValueProblem(.nulCharacter) }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw fail(unexpected("a value"))
            }
        }

        func unexpected(_ expected: String) -> String {
            guard position < count else { return "the frame ends where \(expected) should be" }
            let byte = bytes[position]
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                if let previous = previousSignificantByte(), previous == UInt8(ascii: ",") {
                    return "a trailing comma before '\(Character(Unicode.Scalar(byte)))' (expected \(expected))"
                }
            }
            if byte >= 0x21 && byte < 0x7F {
                return "unexpected '\(Character(Unicode.Scalar(byte)))' where \(expected) should be"
            }
            return "unexpected byte 0x\(String(byte, radix: 16, uppercase: true)) where \(expected) should be"
        }

        func previousSignificantByte() -> UInt8? {
            var index = position - 1
            while index >= 0 {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index -= 1
                default: return bytes[index]
                }
            }
            return nil
        }

        mutating func object(depth: Int) throws(SyntaxError) {
            guard depth <= maximumDepth else { throw fail("the frame is nested deeper than \(maximumDepth) levels") }
            levels.append(Level(isObject: true, keysBase: keys.count))
            position += 1
            skipWhitespace()
            if position < count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                levels.removeLast()
                return
            }
            while true {
                guard position < count, bytes[position] == UInt8(ascii: "\"") else { throw fail(unexpected("a member name")) }
                let name = try string()
                levels[levels.count - 1].keyStart = name.start
                levels[levels.count - 1].keyEnd = name.end
                if name.hasNUL { noteValueProblem(.nulCharacter) }
                addKey(name)
                skipWhitespace()
                guard position < count, bytes[position] == UInt8(ascii: ":") else { throw fail(unexpected("':'")) }
                position += 1
                skipWhitespace()
                if depth == 1 && isId(name) {
                    idCount += 1
                    if position < count, bytes[position] == UInt8(ascii: "\"") {
                        let start = position + 1
                        let text = try string()
                        report.id = decode(start, text.end)
                        if text.hasNUL { noteValueProblem(.nulCharacter) }
                    } else {
                        report.id = nil
                        try value(depth: depth)
                    }
                } else {
                    try value(depth: depth)
                }
                skipWhitespace()
                guard position < count else { throw fail("the frame ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw fail(unexpected("',' or '}'")) }
                position += 1
                break
            }
            let level = levels.removeLast()
            keys.removeSubrange(level.keysBase...)
            if level.table >= 0 { tables.removeLast() }
        }

        mutating func array(depth: Int) throws(SyntaxError) {
            guard depth <= maximumDepth else { throw fail("the frame is nested deeper than \(maximumDepth) levels") }
            levels.append(Level(isObject: false))
            position += 1
            skipWhitespace()
            if position < count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                levels.removeLast()
                return
            }
            while true {
                try value(depth: depth)
                skipWhitespace()
                guard position < count else { throw fail("the frame ends inside an array") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    levels[levels.count - 1].index += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw fail(unexpected("',' or ']'")) }
                position += 1
                break
            }
            levels.removeLast()
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let length = word.utf8CodeUnitCount
            guard position + length <= count, memcmp(bytes + position, word.utf8Start, length) == 0 else {
                throw fail(unexpected("a value"))
            }
            position += length
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; a fraction or an exponent is
        /// noted as a value problem (the protocol's numbers are integers).
        mutating func number() throws(SyntaxError) {
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            guard position < count, isDigit(bytes[position]) else { throw fail("a number needs a digit after '-'") }
            let digitsStart = position
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
                if position < count, isDigit(bytes[position]) { throw fail("a number must not have a leading zero") }
            } else {
                while position < count, isDigit(bytes[position]) { position += 1 }
            }
            let digits = position - digitsStart
            var integer = true
            if position < count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < count, isDigit(bytes[position]) else { throw fail("a number needs digits after '.'") }
                while position < count, isDigit(bytes[position]) { position += 1 }
                integer = false
            }
            if position < count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard position < count, isDigit(bytes[position]) else { throw fail("a number needs digits in its exponent") }
                while position < count, isDigit(bytes[position]) { position += 1 }
                integer = false
            }
            if !integer {
                noteValueProblem(.notAnInteger)
            } else if digits >= 19 && !fitsInt64(from: digitsStart, digits: digits, negative: negative) {
                noteValueProblem(.outOfRange)
            }
        }

        /// Whether the integer's digits are within Int64 (19 digits at most, compared as text).
        func fitsInt64(from start: Int, digits: Int, negative: Bool) -> Bool {
            guard digits == 19 else { return digits < 19 }
            let limit: StaticString = negative ? "9223372036854775808" : "9223372036854775807"
            return memcmp(bytes + start, limit.utf8Start, 19) <= 0
        }

        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

        // MARK: Strings

        struct ScannedString {
            /// The bytes between the quotes.
            var start: Int
            var end: Int
            var plain: Bool
            var hasNUL: Bool
        }

        /// Reads a string from its opening quote: only JSON's escapes, escaped surrogates in
        /// pairs, no raw control characters, well-formed UTF-8 (no overlong forms, no encoded
        /// surrogates, nothing above U+10FFFF).
        mutating func string() throws(SyntaxError) -> ScannedString {
            position += 1
            let start = position
            var plain = true
            var hasNUL = false
            while true {
                // The common case: printable ASCII.
                while position < count {
                    let byte = bytes[position]
                    guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                    position += 1
                }
                guard position < count else { throw SyntaxError(reason: "a string is not closed", offset: start - 1) }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return ScannedString(start: start, end: position - 1, plain: plain, hasNUL: hasNUL)
                }
                plain = false
                if byte == UInt8(ascii: "\\") {
                    if try escape() { hasNUL = true }
                } else if byte < 0x20 {
                    throw fail("a string holds the control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) unescaped")
                } else {
                    try multiByte()
                }
            }
        }

        /// Reads one escape; returns whether it is `\u0000`.
        mutating func escape() throws(SyntaxError) -> Bool {
            position += 1
            guard position < count else { throw fail("a string ends inside an escape") }
            switch bytes[position] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                position += 1
                return false
            case UInt8(ascii: "u"):
                let unit = try hex4()
                if unit & 0xFC00 == 0xD800 {
                    guard position + 1 < count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw fail("an escaped high surrogate (\\u\(String(unit, radix: 16, uppercase: true))) without its low surrogate")
                    }
                    position += 1
                    let low = try hex4()
                    guard low & 0xFC00 == 0xDC00 else { throw fail("an escaped high surrogate followed by \\u\(String(low, radix: 16, uppercase: true)), not a low surrogate") }
                } else if unit & 0xFC00 == 0xDC00 {
                    throw fail("an escaped low surrogate (\\u\(String(unit, radix: 16, uppercase: true))) without a high surrogate before it")
                }
                return unit == 0
            default:
                throw fail(unexpected("one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"))
            }
        }

        /// Reads the `uXXXX` of an escape (position at the `u`).
        mutating func hex4() throws(SyntaxError) -> UInt32 {
            position += 1
            guard position + 4 <= count else { throw fail("a \\u escape needs four hex digits") }
            var unit: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("a \\u escape needs four hex digits")
                }
                unit = unit << 4 | UInt32(digit)
                position += 1
            }
            return unit
        }

        /// Reads one multi-byte UTF-8 sequence (Unicode Table 3-7).
        mutating func multiByte() throws(SyntaxError) {
            let lead = bytes[position]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw fail("the frame is not valid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))")
            }
            guard position + length <= count else { throw fail("the frame is not valid UTF-8 (a sequence is cut off)") }
            let second = bytes[position + 1]
            guard second >= low, second <= high else { throw fail("the frame is not valid UTF-8") }
            for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 {
                throw fail("the frame is not valid UTF-8")
            }
            position += length
        }

        // MARK: Member names

        func isId(_ name: ScannedString) -> Bool {
            if name.plain { return name.end - name.start == 2 && bytes[name.start] == UInt8(ascii: "i") && bytes[name.start + 1] == UInt8(ascii: "d") }
            return decode(name.start, name.end) == "id"
        }

        func hash(_ name: ScannedString) -> UInt64 {
            if name.plain { return fnv(bytes + name.start, name.end - name.start) }
            // Escapes decoded, and in canonical composition (the standard library's, which its
            // String comparison uses), so that names `sameName` takes for the same name hash alike.
            let composed = decode(name.start, name.end)._nfcCodeUnits
            return composed.withUnsafeBufferPointer { $0.isEmpty ? fnv(bytes, 0) : fnv($0.baseAddress!, $0.count) }
        }

        func fnv(_ pointer: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for index in 0..<length {
                hash = (hash ^ UInt64(pointer[index])) &* 0x0000_0100_0000_01b3
            }
            return hash
        }

        func sameName(_ key: Key, _ name: ScannedString) -> Bool {
            if key.plain && name.plain {
                return key.end - key.start == name.end - name.start && memcmp(bytes + key.start, bytes + name.start, key.end - key.start) == 0
            }
            return decode(key.start, key.end) == decode(name.start, name.end)
        }

        mutating func addKey(_ name: ScannedString) {
            let hash = hash(name)
            let level = levels.count - 1
            let base = levels[level].keysBase
            var isDuplicate = false
            if levels[level].table >= 0 {
                let table = levels[level].table
                if let candidates = tables[table][hash] {
                    isDuplicate = candidates.contains { sameName(keys[$0], name) }
                }
                tables[table][hash, default: []].append(keys.count)
            } else {
                for index in base..<keys.count where keys[index].hash == hash && sameName(keys[index], name) {
                    isDuplicate = true
                    break
                }
                if keys.count - base == StrictJSON.linearKeys {
                    var table: [UInt64: [Int]] = [:]
                    for index in base..<keys.count { table[keys[index].hash, default: []].append(index) }
                    table[hash, default: []].append(keys.count)
                    tables.append(table)
                    levels[level].table = tables.count - 1
                }
            }
            keys.append(Key(hash: hash, start: name.start, end: name.end, plain: name.plain))
            if isDuplicate && report.duplicate == nil {
                report.duplicate = Duplicate(name: decode(name.start, name.end), path: path(), parent: path(levels.dropLast()))
            }
        }

        // MARK: Paths

        mutating func noteValueProblem(_ kind: ValueProblem.Kind) {
            guard report.valueProblem == nil else { return }
            report.valueProblem = ValueProblem(kind: kind, path: path())
        }

        /// The path of the current value: each object's current member, each array's index.
        func path() -> String { path(levels[...]) }

        func path(_ levels: ArraySlice<Level>) -> String {
            var text = ""
            for level in levels {
                if level.isObject {
                    let name = decode(level.keyStart, level.keyEnd).replacingEvery("\u{0}", with: "\\u0000")
                    text += text.isEmpty ? name : "." + name
                } else {
                    text += "[\(level.index)]"
                }
            }
            return text
        }

        /// The text of a checked string's bytes (between its quotes), escapes decoded.
        func decode(_ start: Int, _ end: Int) -> String {
            var utf8: [UInt8] = []
            utf8.reserveCapacity(end - start)
            var index = start
            func hex(_ at: Int) -> UInt32 {
                var unit: UInt32 = 0
                for offset in 0..<4 {
                    let byte = bytes[at + offset]
                    let digit: UInt8 = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                    unit = unit << 4 | UInt32(digit)
                }
                return unit
            }
            while index < end {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\\") else {
                    utf8.append(byte)
                    index += 1
                    continue
                }
                let kind = bytes[index + 1]
                index += 2
                switch kind {
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = hex(index)
                    index += 4
                    if scalar & 0xFC00 == 0xD800 {
                        let low = hex(index + 2)
                        index += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                default: utf8.append(kind)
                }
            }
            return String(decoding: utf8, as: UTF8.self)
        }
    }
}
