/// A `multipart/form-data` body (RFC 7578), read by hand (D601): the one upload form needs named
/// text fields and one file, and a parser this small is easier to bound and check than a
/// dependency. Parts are split on the boundary the `Content-Type` names; each part's
/// `Content-Disposition` gives its name and, for a file, its file name.
public struct MultipartForm: Sendable {
    public struct Part: Sendable, Equatable {
        public let name: String
        public let filename: String?
        public let bytes: [UInt8]
    }

    public let parts: [Part]

    /// The boundary of a `multipart/form-data` content type, nil for any other type.
    public static func boundary(contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { String($0).trimmingWhitespace }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = String(piece.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty || value.utf8.count > 70 ? nil : value
        }
        return nil
    }

    /// Nil when the body is not well-formed multipart under `boundary`.
    public init?(body: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard let first = Self.find(delimiter, in: body, from: 0) else { return nil }
        var position = first + delimiter.count
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") { break }
            guard body.count >= position + 2, body[position] == 13, body[position + 1] == 10 else { return nil }
            position += 2
            guard let headersEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: position) else { return nil }
            let headers = String(decoding: body[position..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = Self.find(separator, in: body, from: contentStart) else { return nil }
            guard let disposition = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                  let name = Self.parameter("name", in: String(disposition)) else { return nil }
            parts.append(Part(name: name, filename: Self.parameter("filename", in: String(disposition)), bytes: Array(body[contentStart..<next])))
            position = next + separator.count
        }
        self.parts = parts
    }

    /// The first text field named `name`, as UTF-8.
    public subscript(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The first file sent under `name`.
    public func file(_ name: String) -> Part? { parts.first { $0.name == name && $0.filename != nil } }

    /// The text fields as `FormFields`, so the CSRF check and idempotency key read as for any form.
    public var fields: FormFields { FormFields(parts.filter { $0.filename == nil }.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }) }

    static func parameter(_ wanted: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace }
            guard pair.count == 2, pair[0].lowercased() == wanted else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
