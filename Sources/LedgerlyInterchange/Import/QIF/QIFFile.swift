/// The records of a QIF file's transaction section, as text, with their lines: the structure of
/// the format (headers, one field a line keyed by its first character, `^` ending a record),
/// before any field is interpreted (`QIFStatementReader` does that). Every other section, option
/// and `#` comment line is passed over and said in `notes`.
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
    /// The `N` of the `!Account` block just before the transaction section, when the file has one.
    private(set) var account: String?
    /// What was passed over, one sentence each with its line: sections that hold no bank
    /// transactions (lists, investment accounts, account blocks) with how many records they
    /// held, options, and comment lines. Read to the user, never dropped in silence.
    private(set) var notes: [String] = []

    private enum Section: Equatable {
        case transactions
        /// A section whose records are not read: why, for the note.
        case skipped(why: String)
        /// `!Account`: its `N` names the account of the transaction section after it.
        case account
    }

    /// A section passed over, while its records are counted.
    private struct Skipped {
        let line: Int
        let header: String
        let why: String
        var records = 0
        var pending = false
    }

    init(text: String) throws(BankStatementError) {
        var section: Section?
        var transactionSections = 0
        var current: Record?
        var skipped: Skipped?
        var accountBlock: (line: Int, name: String?)?
        var commentLines: [Int] = []
        var passedOver: [(line: Int, note: String)] = []
        var lineNumber = 0
        func endSkipped() {
            guard var done = skipped else { return }
            if done.pending { done.records += 1 }
            let records = "\(done.records) record\(done.records == 1 ? "" : "s")"
            passedOver.append((done.line, "line \(done.line): section \(done.header) skipped (\(records)): \(done.why)"))
            skipped = nil
        }
        /// The last `!Account` block before the transaction section names its account (lists
        /// and options may come between, investment sections not); any other one names an
        /// account not read, and is noted.
        func endAccountBlock(beforeTransactions: Bool) {
            guard let block = accountBlock else { return }
            if beforeTransactions {
                account = block.name
            } else {
                passedOver.append((block.line, "line \(block.line): section !Account skipped (1 record\(block.name.map { ", \"\($0)\"" } ?? "")): an account's details, not transactions"))
            }
            accountBlock = nil
        }
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.drop(while: { $0 == "\u{FEFF}" }).trimmingWhitespace()
            if line.isEmpty { continue }
            // Comments (`# exported by …`, `### …`) are no part of the format Quicken writes, but
            // other programs write them; no field starts with `#`.
            if line.hasPrefix("#") {
                commentLines.append(lineNumber)
                continue
            }
            if line.hasPrefix("!") {
                if current != nil { throw BankStatementError(line: lineNumber, "\"\(line)\" starts a new section inside a record (the record before it has no ^)") }
                endSkipped()
                let next = try Self.section(of: line, line: lineNumber)
                guard let next else {
                    passedOver.append((lineNumber, "line \(lineNumber): \(line) skipped: an instruction to Quicken's own import, not transactions"))
                    continue
                }
                // An `!Account` block names the bank section after it (lists may come between), or
                // the investment section after it (a broker's), and is then said as skipped.
                if next == .transactions || next == .account || Self.isInvestment(line) {
                    endAccountBlock(beforeTransactions: next == .transactions)
                }
                section = next
                switch next {
                case .transactions:
                    transactionSections += 1
                    guard transactionSections == 1 else {
                        throw BankStatementError(line: lineNumber, "a second account's transactions start here (\"\(line)\"): export one account per file")
                    }
                case .skipped(let why):
                    skipped = Skipped(line: lineNumber, header: line, why: why)
                case .account:
                    accountBlock = (lineNumber, nil)
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
                if skipped != nil {
                    skipped!.records += 1
                    skipped!.pending = false
                }
                current = nil
                continue
            }
            switch section {
            case .skipped:
                skipped?.pending = true
                continue
            case .account:
                if code == "N" { accountBlock?.name = value }
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
        endSkipped()
        endAccountBlock(beforeTransactions: false)
        notes = passedOver.sorted { $0.line < $1.line }.map(\.note)
        if !commentLines.isEmpty {
            let listed = commentLines.prefix(10).map(String.init).joined(separator: ", ") + (commentLines.count > 10 ? ", …" : "")
            notes.insert("\(commentLines.count) comment line\(commentLines.count == 1 ? "" : "s") (#) skipped, on line\(commentLines.count == 1 ? "" : "s") \(listed)", at: 0)
        }
        guard transactionSections == 1 else {
            let passed = notes.isEmpty ? "" : " (passed over: \(notes.joined(separator: "; ")))"
            throw BankStatementError(line: nil, "the file has no !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L section\(passed)")
        }
    }

    /// `!Type:Invst` or `!Type:Port`: an investment account's section.
    private static func isInvestment(_ header: some StringProtocol) -> Bool {
        ["!type:invst", "!type:port"].contains(header.lowercased().filter { $0 != " " })
    }

    /// The section a header starts; nil for an option that starts none (`!Option:AutoSwitch`).
    /// A header that is neither a bank section nor one known to hold none is refused: its
    /// records might be transactions, and passing over them would lose them.
    private static func section(of header: String, line: Int) throws(BankStatementError) -> Section? {
        let lowered = header.lowercased().filter { $0 != " " }
        switch lowered {
        // Other assets and liabilities (`Oth A`, `Oth L`) are written as a bank account is.
        case "!type:bank", "!type:ccard", "!type:cash", "!type:otha", "!type:othl": return .transactions
        case "!type:cat", "!type:class", "!type:memorized", "!type:security", "!type:prices", "!type:tag", "!type:bill", "!type:invoice":
            return .skipped(why: "a list (categories, classes, memorised transactions, securities, prices, tags, bills or invoices), not transactions")
        case "!account": return .account
        // Options (`!Option:AutoSwitch`, `!Option:MDY`, `!Clear:…`) tell Quicken how to import;
        // the date order is told from the dates themselves here.
        case _ where lowered.hasPrefix("!option:") || lowered.hasPrefix("!clear:"): return nil
        case _ where isInvestment(header):
            return .skipped(why: "an investment account: its buys, sells and dividends are not bank transactions (import trades with `ledgerly invest import`)")
        default:
            throw BankStatementError(line: line, "\"\(header)\" is not a section this reader takes (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L)")
        }
    }
}
