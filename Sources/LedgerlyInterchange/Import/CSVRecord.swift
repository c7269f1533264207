/// One record of a CSV file: its fields, and the physical line it starts on.
///
/// The line is kept because every import error has to name the line a user sees in an editor,
/// and with quoted fields spanning lines that is not the record's ordinal.
public struct CSVRecord: Hashable, Sendable {
    /// 1-based physical line on which the record starts (counting the lines skipped before it).
    public let line: Int
    /// The fields, unquoted, in file order. Never empty: a line holding just a delimiter has two
    /// empty fields.
    public let fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }

    /// True when every field is empty or whitespace: bank exports end with lines such as `;;;;`
    /// that carry no transaction and must not be read as one.
    public var isBlank: Bool {
        fields.allSatisfy(\.isBlank)
    }
}
