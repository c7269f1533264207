/// Small text helpers the import runs on every row of files up to ~100 MB.
///
/// They work on UTF-8 bytes: `Character.isWhitespace` looks up Unicode properties for every
/// character and building strings scalar by scalar is slower still, which together made
/// trimming and collapsing the largest cost of an import. Whitespace is what Unicode calls
/// whitespace, so the no-break spaces banks pad with count; its few non-ASCII members are
/// matched as byte sequences.
enum ImportText {
    /// How many bytes of whitespace start at `index` (0 when none): ASCII space, tab, line
    /// feed, vertical tab, form feed, carriage return, and U+0085, U+00A0, U+1680,
    /// U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return byte == 0x20 || (0x09...0x0D).contains(byte) ? 1 : 0 }
        let remaining = bytes.count - index
        switch byte {
        case 0xC2 where remaining >= 2:
            return bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0 ? 2 : 0
        case 0xE1 where remaining >= 3:
            return bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80 ? 3 : 0
        case 0xE2 where remaining >= 3:
            let second = bytes[index + 1], third = bytes[index + 2]
            if second == 0x80, (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF { return 3 }
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3 where remaining >= 3:
            return bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// Runs `body` on the UTF-8 bytes of `text` without copying when the string is native.
    static func withBytes<R>(_ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The byte range of `bytes` without leading and trailing whitespace.
    static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        while start < bytes.count {
            let length = whitespaceLength(bytes, at: start)
            if length == 0 { break }
            start += length
        }
        var end = bytes.count
        // Walk back over whole scalars: find each scalar's first byte, then test it.
        while end > start {
            var scalarStart = end - 1
            while scalarStart > start, bytes[scalarStart] & 0xC0 == 0x80 { scalarStart -= 1 }
            guard whitespaceLength(bytes, at: scalarStart) == end - scalarStart else { break }
            end = scalarStart
        }
        return start..<end
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        ImportText.withBytes(self) { bytes in
            let range = ImportText.trimmedRange(bytes)
            if range.count == bytes.count { return String(self) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    /// Empty or only whitespace.
    var isBlank: Bool {
        ImportText.withBytes(self) { ImportText.trimmedRange($0).isEmpty }
    }

    /// Trimmed, with every run of whitespace (line breaks from quoted fields, the padding banks
    /// put inside fixed-width descriptions) turned into one space: the form a description is
    /// shown, matched by rules and fingerprinted in.
    func collapsingWhitespace() -> String {
        ImportText.withBytes(self) { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var pendingSpace = false
            var index = 0
            while index < bytes.count {
                let length = ImportText.whitespaceLength(bytes, at: index)
                if length > 0 {
                    pendingSpace = !result.isEmpty
                    index += length
                } else {
                    if pendingSpace { result.append(0x20) }
                    pendingSpace = false
                    result.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Whether `needle` occurs in the text, compared as UTF-8 bytes. The caller lower-cases both
    /// sides; this avoids Foundation's locale-aware search, which bridges to NSString per call.
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        return ImportText.withBytes(self) { haystack in
            guard haystack.count >= needle.count else { return false }
            let first = needle[0]
            for index in 0...(haystack.count - needle.count) where haystack[index] == first {
                if UnsafeBufferPointer(rebasing: haystack[index..<(index + needle.count)]).elementsEqual(needle) { return true }
            }
            return false
        }
    }
}

extension Character {
    /// The character itself when it is an ASCII digit: `Character.isNumber` also accepts "½"
    /// and Arabic-Indic digits, which `Money` would refuse.
    var asciiDigit: Character? {
        guard let ascii = asciiValue, ascii >= 0x30, ascii <= 0x39 else { return nil }
        return self
    }
}
