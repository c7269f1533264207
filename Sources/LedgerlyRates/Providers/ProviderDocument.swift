import Foundation

/// The checks every parser makes before reading its format, so that the usual ways an HTTP
/// fetch or a dropped file goes wrong get one clear error each instead of a parser's confusion:
/// nothing at all, binary data, or an HTML error page from a proxy or a captive portal.
enum ProviderDocument {
    /// The document's bytes without a UTF-8 byte-order mark (spreadsheet exports begin with one).
    ///
    /// Throws `.empty` for no data or only whitespace, `.notFormat` for anything that is not
    /// UTF-8 text (NUL bytes or invalid sequences), and `.htmlPage` for an HTML page.
    static func text(_ data: Data, format: ProviderError.Format) throws(ProviderError) -> Data {
        var body = data
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.contains(where: { !isSpace($0) }) else { throw .empty(format) }
        if body.contains(0) || String(validating: body, as: UTF8.self) == nil {
            throw .notFormat(format, reason: "binary data (\(data.count) bytes), not text")
        }
        if let title = htmlTitle(body) { throw .htmlPage(format, title: title.isEmpty ? nil : title) }
        return Data(body)
    }

    /// The first byte that is not whitespace, to tell what kind of text this is.
    static func firstSignificantByte(_ data: Data) -> UInt8? {
        data.first(where: { !isSpace($0) })
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `nil` when the text is not HTML; otherwise the page's title ("" when it has none).
    ///
    /// HTML is recognized only when the document starts with '<' and its head names `<html` or
    /// an HTML doctype, so a JSON message that merely mentions HTML is not taken for a page.
    private static func htmlTitle(_ data: Data) -> String? {
        guard firstSignificantByte(data) == UInt8(ascii: "<") else { return nil }
        let original = Array(data.prefix(4096))
        // ASCII-only lower-casing keeps every byte where it was, so offsets found in `head`
        // are offsets in `original`.
        let head = original.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard find(Array("<html".utf8), in: head, from: 0) != nil || find(Array("<!doctype html".utf8), in: head, from: 0) != nil
        else { return nil }
        guard let open = find(Array("<title".utf8), in: head, from: 0),
              let close = head[open...].firstIndex(of: UInt8(ascii: ">")),
              let end = find(Array("</title>".utf8), in: head, from: close + 1)
        else { return "" }
        let title = String(decoding: original[(close + 1)..<end], as: UTF8.self)
        return String(title.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(120))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
