/// Why a page could not be read by `JSONByteReader` (the caller falls back to `JSONDecoder`).
public struct JSONByteReaderError: Error, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "unexpected JSON at byte \(offset): \(reason)" }
}
