#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LedgerlyCore

/// The byte writer of the bulk paths (export pages, category reports): JSON written straight into
/// a byte buffer in exactly the form `MessageCoding.encoder()` gives (docs/architecture.md, "JSON").
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
