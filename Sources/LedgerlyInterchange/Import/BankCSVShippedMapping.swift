/// Mappings that come with Ledgerly for banks whose CSV export is common and stable, named on the
/// command line (`ledgerly import csv giro.csv --wallet Giro --mapping dkb`).
///
/// Each is the layout of the bank's own export as published examples and importers of other
/// tools show it (the sources are named in docs/reports-import-export.md); a bank that changes
/// its export breaks the mapping loudly (a column not in the header is an error naming the
/// header), never quietly. These banks put a preamble of varying length (account, period,
/// balance) before the header, so the header is found as the first line within
/// `BankCSVMapping.maximumPreambleLines` that has every column the mapping names.
public struct BankCSVShippedMapping: Sendable {
    /// What `--mapping` takes.
    public let name: String
    /// The bank and the export, for `ledgerly import mappings`.
    public let about: String
    public let mapping: BankCSVMapping

    public static let all: [BankCSVShippedMapping] = [
        BankCSVShippedMapping(
            name: "dkb", about: "DKB (Germany), giro account, \"Umsätze\" CSV export since 2023",
            mapping: BankCSVMapping(
                delimiter: .semicolon, date: .name("Buchungsdatum"), amounts: .signed(.name("Betrag (€)")),
                description: [.name("Zahlungsempfänger*in"), .name("Verwendungszweck")],
                dateFormat: "DD.MM.YY", decimalSeparator: ",", thousandsSeparator: ".")),
        BankCSVShippedMapping(
            name: "ing-de", about: "ING Deutschland, \"Umsatzanzeige\" CSV export",
            mapping: BankCSVMapping(
                delimiter: .semicolon, date: .name("Buchung"), amounts: .signed(.name("Betrag")),
                description: [.name("Auftraggeber/Empfänger"), .name("Verwendungszweck")],
                dateFormat: "DD.MM.YYYY", decimalSeparator: ",", thousandsSeparator: ".")),
        BankCSVShippedMapping(
            name: "n26", about: "N26, transactions CSV export (Booking Date, Partner Name, Amount (EUR)) since 2024",
            mapping: BankCSVMapping(
                delimiter: .comma, date: .name("Booking Date"), amounts: .signed(.name("Amount (EUR)")),
                description: [.name("Partner Name"), .name("Payment Reference")],
                dateFormat: "YYYY-MM-DD", decimalSeparator: ".")),
    ]

    public static func named(_ name: String) -> BankCSVShippedMapping? {
        all.first { $0.name == name.lowercased() }
    }

    /// The mapping with `skipLines` set to the line before `text`'s header.
    public func mapping(for text: String) throws(BankStatementError) -> BankCSVMapping {
        let bytes = Array(text.utf8)
        let wanted = mapping.namedColumns.compactMap { column -> String? in
            if case .name(let name) = column.column { BankCSVColumn.normalized(name) } else { nil }
        }
        for skip in 0...BankCSVMapping.maximumPreambleLines {
            var reader = CSVReader(bytes: bytes, delimiter: mapping.delimiter, skipLines: skip)
            guard let record = try? reader.next() else { break }
            let names = Set(record.fields.map(BankCSVColumn.normalized))
            if wanted.allSatisfy(names.contains) {
                var found = mapping
                found.skipLines = record.line - 1
                return found
            }
        }
        let listed = wanted.map { "\"\($0)\"" }.joined(separator: ", ")
        throw BankStatementError(line: nil, "no header with the columns of the \(name) mapping (\(listed)) in the first \(BankCSVMapping.maximumPreambleLines) lines: is this a \(about) file?")
    }
}
