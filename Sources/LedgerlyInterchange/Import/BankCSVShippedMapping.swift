/// Mappings that come with Ledgerly for banks whose CSV export is common and stable, named on the
/// command line (`ledgerly import csv giro.csv --wallet Giro --mapping dkb`).
///
/// Each is the layout of the bank's own export as published examples and importers of other
/// tools show it (the sources are named in docs/reports-import-export.md); a bank that changes
/// its export breaks the mapping loudly (a column not in the header is an error naming the
/// header), never quietly. These banks put a preamble of varying length (account, period,
/// balance) before the header, so each has `findHeader`: the header is the first line within the
/// first `BankCSVMapping.maximumPreambleLines + 1` that has every column the mapping names.
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
                dateFormat: "DD.MM.YY", decimalSeparator: ",", thousandsSeparator: ".", findHeader: true)),
        BankCSVShippedMapping(
            name: "ing-de", about: "ING Deutschland, \"Umsatzanzeige\" CSV export",
            mapping: BankCSVMapping(
                delimiter: .semicolon, date: .name("Buchung"), amounts: .signed(.name("Betrag")),
                description: [.name("Auftraggeber/Empfänger"), .name("Verwendungszweck")],
                dateFormat: "DD.MM.YYYY", decimalSeparator: ",", thousandsSeparator: ".", findHeader: true)),
        BankCSVShippedMapping(
            name: "n26", about: "N26, transactions CSV export (Booking Date, Partner Name, Amount (EUR)) since 2024",
            mapping: BankCSVMapping(
                delimiter: .comma, date: .name("Booking Date"), amounts: .signed(.name("Amount (EUR)")),
                description: [.name("Partner Name"), .name("Payment Reference")],
                dateFormat: "YYYY-MM-DD", decimalSeparator: ".", findHeader: true)),
    ]

    public static func named(_ name: String) -> BankCSVShippedMapping? {
        all.first { $0.name == name.lowercased() }
    }

    /// The mapping with `skipLines` set to the line before `text`'s header.
    public func mapping(for text: String) throws(BankStatementError) -> BankCSVMapping {
        do {
            return try mapping.locatingHeader(in: text)
        } catch {
            throw BankStatementError(line: error.line, "\(name): \(error.message): is this a \(about) file?")
        }
    }
}
