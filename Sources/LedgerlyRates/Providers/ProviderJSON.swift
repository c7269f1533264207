import Foundation

/// A JSON document as a tree whose numbers are `Decimal`, decoded from each number's own text by
/// `JSONDecoder` (exact: no `Double` on the way).
///
/// The JSON providers have shapes that fixed `Decodable` structs describe badly (a `rates` object
/// whose values are numbers or, in a time series, objects; CoinGecko's coin ids as keys; error
/// bodies in place of data), and a failed struct decode says little a user can act on. Walking
/// a tree lets each parser name the exact key or index that is wrong.
enum ProviderJSON: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([ProviderJSON])
    case object([String: ProviderJSON])

    /// Decodes `data` (already checked by `ProviderDocument.text`), mapping decoder failures to
    /// `.malformed` with the path of the failing value when there is one.
    static func decode(_ data: Data, _ format: ProviderError.Format) throws(ProviderError) -> ProviderJSON {
        do {
            return try JSONDecoder().decode(ProviderJSON.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            throw .malformed(format, detail: "a number too large or too precise to read exactly", at: .path(path))
        } catch {
            var detail = "not valid JSON"
            if case DecodingError.dataCorrupted(let context) = error,
               let underlying = context.underlyingError.map({ ($0 as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "" }),
               !underlying.isEmpty {
                detail += " (\(underlying))"
            }
            throw .malformed(format, detail: detail, at: nil)
        }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members = [String: ProviderJSON]()
            for key in object.allKeys { members[key.stringValue] = try object.decode(ProviderJSON.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements = [ProviderJSON]()
            while !array.isAtEnd { elements.append(try array.decode(ProviderJSON.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Decimal.self) {
                self = .number(number)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else {
                throw DecodingError.dataCorruptedError(in: value, debugDescription: "unreadable value")
            }
        }
    }

    /// What the value is, for "expected an object, got an array" messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as it would read in the document, for error messages.
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .number(let number): number.description
        case .string(let string): string
        case .array: "[…]"
        case .object: "{…}"
        }
    }

    subscript(key: String) -> ProviderJSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var string: String? { if case .string(let string) = self { string } else { nil } }
    var number: Decimal? { if case .number(let number) = self { number } else { nil } }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
