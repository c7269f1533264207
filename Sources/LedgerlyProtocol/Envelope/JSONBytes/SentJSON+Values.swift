/// What `JSONDecoder` accepts for each kind of member, on the parsed frame: nil when it would
/// refuse the value (another type), so the caller gives up and `JSONDecoder` words the error.
extension SentJSON {
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A 64-bit integer (the frame's numbers are integers in range: `StrictJSON` refused others).
    var integer: Int64? {
        if case .number(let digits) = self { return Int64(digits) }
        return nil
    }

    /// An array read element by element; nil when it is not an array or an element does not read.
    func array<Element>(_ read: (SentJSON) -> Element?) -> [Element]? {
        guard case .array(let elements) = self else { return nil }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = read(element) else { return nil }
            values.append(value)
        }
        return values
    }

    /// An optional member's value: `.some(nil)` for null, nil when it does not read.
    func optional<Value>(_ read: (SentJSON) -> Value?) -> Value?? {
        if isNull { return .some(nil) }
        return read(self).map { .some($0) }
    }

    var optionalString: String?? { optional(\.string) }
    var optionalInteger: Int64?? { optional(\.integer) }
    var optionalBool: Bool?? { optional(\.bool) }
}
