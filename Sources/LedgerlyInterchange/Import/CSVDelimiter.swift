/// The field separator of a CSV file.
///
/// Only the three that banks actually use are offered, so a typo in a mapping ("|" or ", ") is
/// an error instead of a file that silently parses as one column per line.
public enum CSVDelimiter: String, CaseIterable, Codable, Sendable {
    case comma = ","
    case semicolon = ";"
    case tab = "\t"

    /// The byte the reader splits on; all three are ASCII, so splitting UTF-8 bytes is safe.
    var byte: UInt8 { rawValue.utf8.first! }

    /// Accepts the character itself and, for the one that is awkward to type in JSON, `"tab"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if text.lowercased() == "tab" {
            self = .tab
        } else if let value = CSVDelimiter(rawValue: text) {
            self = value
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "delimiter \"\(text)\" is not one of \",\", \";\" or \"\\t\" (tab)"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
