import FoundationEssentials
import LedgerlyInterchange

/// Prints rows as CSV (RFC 4180) for `--csv`, so a report goes straight into a spreadsheet.
struct CSVOutput {
    private var text = ""

    init(header: [String]) { add(header) }

    mutating func add(_ fields: [String]) {
        text += CSVField.line(fields)
    }

    func print() { CommandOutput.current.printed(text) }
}
