import FoundationEssentials
import LedgerlyCore

/// CSV output as RFC 4180 has it: a field with a comma, quote or line break is quoted with its
/// quotes doubled, and records end with CRLF. Every CSV Ledgerly writes goes through here.
public enum CSVField {
    public static func quoted(_ field: String) -> String {
        // Bytes, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingEvery("\"", with: "\"\"") + "\""
    }

    /// One record, with its line end.
    public static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }
}
