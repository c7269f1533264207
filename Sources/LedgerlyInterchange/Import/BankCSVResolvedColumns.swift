/// A mapping's columns resolved against one file's header: positions to read and the labels
/// messages use (the header's own spelling, so the user recognises the column).
struct BankCSVResolvedColumns {
    struct Resolved {
        /// 0-based position in a record.
        let index: Int
        /// `column "Betrag"` with a header, `column 4` without.
        let label: String

        /// The cell; a row too short to have it is an error, since a required value is missing
        /// and a short row usually means a wrong delimiter or a stray line.
        func required(in record: CSVRecord) throws(BankStatementError) -> String {
            guard index < record.fields.count else {
                throw BankStatementError(line: record.line, "the line has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") but \(label) is field \(index + 1) (is the delimiter right?)")
            }
            return record.fields[index]
        }

        /// The cell, or "" when the row ends before it: exporters drop trailing empty cells.
        func optional(in record: CSVRecord) -> String {
            index < record.fields.count ? record.fields[index] : ""
        }
    }

    enum Amounts {
        case signed(Resolved)
        case debitCredit(debit: Resolved, credit: Resolved)
    }

    let date: Resolved
    let amounts: Amounts
    let currency: Resolved?
    let description: [Resolved]

    init(mapping: BankCSVMapping, header: CSVRecord?) throws(BankStatementError) {
        var positions: [String: [Int]] = [:]
        for (index, name) in (header?.fields ?? []).enumerated() {
            positions[BankCSVColumn.normalized(name), default: []].append(index)
        }

        func resolve(_ column: BankCSVColumn, role: String) throws(BankStatementError) -> Resolved {
            switch column {
            case .index(let number):
                guard let header else { return Resolved(index: number - 1, label: "column \(number)") }
                guard number <= header.fields.count else {
                    throw BankStatementError(line: header.line, "the \(role) column \(number) is beyond the header's \(header.fields.count) columns")
                }
                return Resolved(index: number - 1, label: "column \(number) (\"\(header.fields[number - 1].trimmingWhitespace())\")")
            case .name(let name):
                guard let header else {
                    throw BankStatementError(line: nil, "the \(role) column is given by name (\"\(name)\") but the mapping has no header")
                }
                let found = positions[BankCSVColumn.normalized(name)] ?? []
                guard found.count == 1 else {
                    if found.isEmpty {
                        let names = header.fields.map { "\"\($0.trimmingWhitespace())\"" }.joined(separator: ", ")
                        throw BankStatementError(line: header.line, "the \(role) column \"\(name)\" is not in the header (\(names))")
                    }
                    throw BankStatementError(line: header.line, "the \(role) column \"\(name)\" appears \(found.count) times in the header (columns \(found.map { String($0 + 1) }.joined(separator: ", "))): give its number instead")
                }
                return Resolved(index: found[0], label: "column \"\(header.fields[found[0]].trimmingWhitespace())\"")
            }
        }

        date = try resolve(mapping.date, role: "date")
        switch mapping.amounts {
        case .signed(let column):
            amounts = .signed(try resolve(column, role: "amount"))
        case .debitCredit(let debit, let credit):
            amounts = .debitCredit(debit: try resolve(debit, role: "debit"), credit: try resolve(credit, role: "credit"))
        }
        if let column = mapping.currency {
            currency = try resolve(column, role: "currency")
        } else {
            currency = nil
        }
        var description: [Resolved] = []
        for column in mapping.descriptionColumns { description.append(try resolve(column, role: "description")) }
        self.description = description
    }
}
