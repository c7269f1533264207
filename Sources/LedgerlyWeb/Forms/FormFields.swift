/// The fields of an `application/x-www-form-urlencoded` body or a query string, as the browser
/// sent them (WHATWG URL standard: `+` is a space, `%XX` a byte; bytes that are not UTF-8 become
/// U+FFFD). A field sent twice keeps its first value; every name is kept for `values(_:)`.
public struct FormFields: Sendable, Equatable {
    private var pairs: [(name: String, value: String)]

    public init(encoded: String) {
        pairs = encoded.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            return (name, value)
        }
    }

    public init(_ pairs: [(String, String)]) { self.pairs = pairs.map { (name: $0.0, value: $0.1) } }

    public static func == (left: FormFields, right: FormFields) -> Bool {
        left.pairs.map(\.name) == right.pairs.map(\.name) && left.pairs.map(\.value) == right.pairs.map(\.value)
    }

    /// The first value of `name`, nil when the field was not sent.
    public subscript(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// The value with surrounding spaces removed, nil when absent or blank.
    public func trimmed(_ name: String) -> String? {
        guard let value = self[name] else { return nil }
        let trimmed = value.trimmingWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = iterator.next(), low = iterator.next()
                if let high, let low, let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                } else {
                    // Not an escape: kept as sent.
                    bytes.append(byte)
                    if let high { bytes.append(high) }
                    if let low { bytes.append(low) }
                }
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
