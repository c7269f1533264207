/// The records of a QIF file's transaction section, as text, with their lines: the structure of
/// the format (headers, one field a line keyed by its first character, `^` ending a record),
/// before any field is interpreted (`QIFStatementReader` does that).
struct QIFFile {
    struct Field {
        let line: Int
        let text: String
    }

    struct Split {
        /// The line of its first field.
        let line: Int
        var category = ""
        var memo = ""
        var amount: Field?
    }

    struct Record {
        /// The line of its first field.
        let line: Int
        var date: Field?
        var amount: Field?
        var payee: String?
        var memo: String?
        var number: String?
        var category: String?
        var splits: [Split] = []
    }

    private(set) var records: [Record] = []
    /// The `N` of an `!Account` block, when the file has one.
    private(set) var account: String?

    private enum Section {
        case transactions
        /// Category, class, memorised, security, price, tag, bill and invoice lists: no transactions.
        case list
        case account
    }

    init(text: String) throws(BankStatementError) {
        var section: Section?
        var transactionSections = 0
        var current: Record?
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.drop(while: { $0 == "\u{FEFF}" }).trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("!") {
                if current != nil { throw BankStatementError(line: lineNumber, "\"\(line)\" starts a new section inside a record (the record before it has no ^)") }
                guard let next = try Self.section(of: line, line: lineNumber) else { continue }
                section = next
                if next == .transactions {
                    transactionSections += 1
                    guard transactionSections == 1 else {
                        throw BankStatementError(line: lineNumber, "a second account's transactions start here (\"\(line)\"): export one account per file")
                    }
                }
                continue
            }
            guard let section else {
                throw BankStatementError(line: lineNumber, "\"\(line.prefix(40))\" comes before any !Type: line: a QIF file starts with one (e.g. !Type:Bank)")
            }
            let code = line.first!
            let value = String(line.dropFirst()).trimmingWhitespace()
            if code == "^" {
                if section == .transactions, let record = current { records.append(record) }
                current = nil
                continue
            }
            switch section {
            case .list:
                continue
            case .account:
                if code == "N" { account = value }
                continue
            case .transactions:
                break
            }
            var record = current ?? Record(line: lineNumber)
            switch code {
            case "D": record.date = Field(line: lineNumber, text: value)
            case "T": record.amount = Field(line: lineNumber, text: value)
            case "U": if record.amount == nil { record.amount = Field(line: lineNumber, text: value) }
            case "P": record.payee = value
            case "M": record.memo = value
            case "N": record.number = value.isEmpty ? nil : value
            case "L": record.category = value
            // A part is `S`, `E`, `$` in that order and ends at its `$`: an `E` after a `$` starts
            // the next part, which its `S` then joins.
            case "S":
                if let last = record.splits.last, last.amount == nil, last.category.isEmpty {
                    record.splits[record.splits.count - 1].category = value
                } else {
                    record.splits.append(Split(line: lineNumber, category: value))
                }
            case "E":
                if record.splits.last.map({ $0.amount != nil || !$0.memo.isEmpty }) ?? true { record.splits.append(Split(line: lineNumber)) }
                record.splits[record.splits.count - 1].memo = value
            case "$":
                if record.splits.last.map({ $0.amount != nil }) ?? true { record.splits.append(Split(line: lineNumber)) }
                record.splits[record.splits.count - 1].amount = Field(line: lineNumber, text: value)
            default:
                break  // C (cleared), A (address), % (split percentage), F, K…: not read.
            }
            current = record
        }
        if let current { throw BankStatementError(line: current.line, "the record starting here never ends (no ^ before the end of the file)") }
        guard transactionSections == 1 else {
            throw BankStatementError(line: nil, "the file has no !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L section")
        }
    }

    /// The section a header starts; nil for an option that starts none (`!Option:AutoSwitch`).
    private static func section(of header: String, line: Int) throws(BankStatementError) -> Section? {
        let lowered = header.lowercased().filter { $0 != " " }
        switch lowered {
        // Other assets and liabilities (`Oth A`, `Oth L`) are written as a bank account is.
        case "!type:bank", "!type:ccard", "!type:cash", "!type:otha", "!type:othl": return .transactions
        case "!type:cat", "!type:class", "!type:memorized", "!type:security", "!type:prices", "!type:tag", "!type:bill", "!type:invoice": return .list
        case "!account": return .account
        // Options (`!Option:AutoSwitch`, `!Option:MDY`, `!Clear:…`) tell Quicken how to import;
        // the date order is told from the dates themselves here.
        case _ where lowered.hasPrefix("!option:") || lowered.hasPrefix("!clear:"): return nil
        case "!type:invst", "!type:port":
            throw BankStatementError(line: line, "\"\(header)\" is an investment account: its buys, sells and dividends are not bank transactions; import trades with `ledgerly invest import`")
        default:
            throw BankStatementError(line: line, "\"\(header)\" is not a section this reader takes (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L)")
        }
    }
}
