extension JSONByteReader {
    /// One value as `SentJSON`, read with the byte reader the export pages use (its strings,
    /// escapes and literals), from a frame `StrictJSON` has already accepted. An integer becomes
    /// its decimal text as `NSNumber` prints it (`-0` is `0`); a number with a fraction or an
    /// exponent keeps the text sent (no accepted request holds one).
    mutating func sentJSON() throws -> SentJSON {
        switch try peek() {
        case UInt8(ascii: "{"):
            var members: [SentJSON.Member] = []
            try object { reader, key in members.append(SentJSON.Member(key: key, value: try reader.sentJSON())) }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [SentJSON] = []
            try array { elements.append(try $0.sentJSON()) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try boolean())
        case UInt8(ascii: "n"):
            _ = try null()
            return .null
        default:
            let text = try numberText()
            if let value = Int64(text) { return .number(String(value)) }
            if let value = UInt64(text) { return .number(String(value)) }
            return .number(text)
        }
    }
}
