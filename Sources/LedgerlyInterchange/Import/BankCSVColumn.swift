import FoundationEssentials
import LedgerlyCore

/// Where a mapping finds a value: a header name or a 1-based column number.
///
/// In JSON a string is a header name (`"Booking date"`) and a number a column position (`3`),
/// so a user can map files without a header, or with headers that repeat or change wording
/// between exports, without a second syntax.
public enum BankCSVColumn: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Matched against the header case-insensitively after trimming, because banks are not
    /// consistent about either between exports.
    case name(String)
    /// 1-based, as spreadsheet users count.
    case index(Int)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .index(index)
        } else if let name = try? container.decode(String.self) {
            self = .name(name)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a column is a header name (a string) or a 1-based column number"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .name(let name): try container.encode(name)
        case .index(let index): try container.encode(index)
        }
    }

    /// How the column reads in a message about the mapping itself.
    public var description: String {
        switch self {
        case .name(let name): "column \"\(name)\""
        case .index(let index): "column \(index)"
        }
    }

    /// The form used to look a name up in the header.
    static func normalized(_ name: String) -> String {
        name.trimmingWhitespaceAndNewlines().lowercased()
    }

    func validate(role: String) throws(BankStatementError) {
        switch self {
        case .name(let name):
            if Self.normalized(name).isEmpty { throw BankStatementError(line: nil, "the \(role) column name is empty") }
        case .index(let index):
            if index < 1 { throw BankStatementError(line: nil, "the \(role) column number \(index) is not valid: columns count from 1") }
        }
    }
}
