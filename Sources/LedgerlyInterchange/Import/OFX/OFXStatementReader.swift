import FoundationEssentials
import LedgerlyCore

/// Reads an OFX statement (Open Financial Exchange 1.x SGML, 2.x XML, and Quicken's QFX, which is
/// OFX) into rows: the bank (`STMTRS`) and credit-card (`CCSTMTRS`) statements' `STMTTRN`s.
///
/// What each transaction becomes (docs/reports-import-export.md, "Bank formats"):
/// - the day is `DTPOSTED`'s first eight digits, as written (`20260105120000.000[-5:EST]` is
///   2026-01-05): the ledger records the bank's day, not a moment moved into another zone;
/// - `TRNAMT` is signed from the customer's side (OFX 3.2.9.2), so negative is an expense and
///   positive income, for card statements too; its radix is `.` or, as the specification also
///   allows, a `,` (an amount with both is refused, since OFX has no digit grouping);
/// - the amount is in `CURDEF` (when it is blank, in the one `CURSYM` every transaction names),
///   or in `CURRENCY`'s `CURSYM` when that aggregate is present (the
///   store then converts it as it converts a CSV row in another currency; `CURRATE` is not used,
///   because "ratio of CURDEF to CURSYM" leaves its direction open and a wrong guess would be
///   silently wrong); `ORIGCURRENCY` only says what the amount was before the bank converted it,
///   so the amount stays in `CURDEF`;
/// - the description is `NAME` (or `PAYEE`'s `NAME`) then `MEMO`;
/// - the import key is built from `FITID` (`BankTransactionIdKeys`), the text fingerprint when
///   a transaction has none.
///
/// A transaction of zero is left out with a note. A transaction correcting an earlier one (`CORRECTFITID`) is refused: applying a bank's
/// correction means changing or deleting what was imported, which an import does not do in silence.
public enum OFXStatementReader {
    /// - Parameters:
    ///   - rules: the CSV mapping's rules, applied to each description.
    ///   - account: the `ACCTID` to read when the file holds statements of several accounts.
    public static func parse(text: String, rules: [BankCSVRule] = [], account: String? = nil) throws(BankStatementError) -> BankStatement {
        let root = try document(text)
        guard root.name == "OFX" else { throw BankStatementError(line: root.line, "the root element is <\(root.name)>, not <OFX>") }
        var statements: [(statement: MarkupElement, account: String)] = []
        for messageSet in root.children where messageSet.name == "BANKMSGSRSV1" || messageSet.name == "CREDITCARDMSGSRSV1" {
            for response in messageSet.children where response.name == "STMTTRNRS" || response.name == "CCSTMTTRNRS" {
                let isCard = response.name == "CCSTMTTRNRS"
                guard let statement = response.child(isCard ? "CCSTMTRS" : "STMTRS") else {
                    let code = response.value(at: "STATUS/CODE") ?? "none"
                    let message = response.value(at: "STATUS/MESSAGE").map { ": \($0)" } ?? ""
                    throw BankStatementError(line: response.line, "<\(response.name)> holds no statement (status code \(code)\(message))")
                }
                let id = statement.value(at: isCard ? "CCACCTFROM/ACCTID" : "BANKACCTFROM/ACCTID") ?? ""
                statements.append((statement, id))
            }
        }
        guard !statements.isEmpty else {
            throw BankStatementError(line: root.line, "the file holds no bank or credit-card statement (<STMTRS> or <CCSTMTRS>): investment and other statements are not read")
        }
        try Self.checkEveryTransactionIsInAList(root, statements: statements.map(\.statement))
        if let account {
            statements = statements.filter { $0.account == account }
            guard !statements.isEmpty else { throw BankStatementError(line: nil, "the file holds no statement of account \"\(account)\"") }
        }
        let accounts = Array(Set(statements.map(\.account))).sorted()
        guard accounts.count == 1 else {
            throw BankStatementError(line: nil, "the file holds statements of \(accounts.count) accounts (\(accounts.map { "\"\($0)\"" }.joined(separator: ", "))): choose one with --account")
        }

        let ruleSet = try BankCSVRuleSet(rules)
        var keys = BankTransactionIdKeys(format: "ofx")
        var rows: [BankStatementRow] = []
        var zeroLines: [Int] = []
        var statementCurrency: Currency?
        var entries = 0
        var notes: [String] = []
        for (statement, _) in statements {
            let currency: Currency
            if let code = statement.value(at: "CURDEF") {
                currency = try Self.currency(code, element: "CURDEF", line: statement.element(at: "CURDEF")?.line)
            } else {
                currency = try Self.currencyOfEveryTransaction(statement)
                notes.append("line \(statement.line): <\(statement.name)> has no <CURDEF>; every transaction names \(currency.code) in <CURRENCY><CURSYM>, taken as the statement's currency")
            }
            if let statementCurrency, statementCurrency != currency {
                throw BankStatementError(line: statement.line, "<CURDEF> \(currency.code) differs from the \(statementCurrency.code) of the statement before it")
            }
            statementCurrency = currency
            for transaction in statement.element(at: "BANKTRANLIST")?.children("STMTTRN") ?? [] {
                entries += 1
                switch try row(transaction, statementCurrency: currency, rules: ruleSet, keys: &keys) {
                case .row(let row): rows.append(row)
                case .zero(let line): zeroLines.append(line)
                }
            }
        }
        if !zeroLines.isEmpty {
            notes.append(BankStatement.leftOutNote(zeroLines, "transaction", "transactions", what: "of zero", advice: "a transaction of nothing cannot be recorded"))
        }
        return BankStatement(currency: statementCurrency?.code, account: accounts[0].isEmpty ? nil : accounts[0], rows: rows, notes: notes, entries: entries)
    }

    /// The currency of a statement whose `CURDEF` is empty or missing (some banks' exports leave
    /// it blank): the one every transaction names in `CURRENCY/CURSYM`, when they all name the
    /// same; otherwise the statement's currency cannot be told and the file is refused.
    private static func currencyOfEveryTransaction(_ statement: MarkupElement) throws(BankStatementError) -> Currency {
        let refusal = BankStatementError(line: statement.line, "<\(statement.name)> has no <CURDEF> (the statement's currency)")
        let transactions = statement.element(at: "BANKTRANLIST")?.children("STMTTRN") ?? []
        let codes = Set(transactions.map { $0.value(at: "CURRENCY/CURSYM") })
        guard !transactions.isEmpty, codes.count == 1, let only = codes.first, let code = only else { throw refusal }
        return try Self.currency(code, element: "CURRENCY/CURSYM", line: transactions[0].element(at: "CURRENCY/CURSYM")?.line)
    }

    /// Refuses a file holding a bank or card `STMTTRN` that is not in a statement's
    /// `BANKTRANLIST`: the structure was not understood (an end tag left out where the grammar
    /// cannot tell), and reading the rest would leave that transaction out in silence.
    /// `STMTTRN`s of investment statements (`INVBANKTRAN`) are not bank transactions and not counted.
    private static func checkEveryTransactionIsInAList(_ root: MarkupElement, statements: [MarkupElement]) throws(BankStatementError) {
        let listed = statements.reduce(0) { $0 + ($1.element(at: "BANKTRANLIST")?.children("STMTTRN").count ?? 0) }
        var total = 0
        /// The first `STMTTRN` whose parent is not a `BANKTRANLIST`, and that parent's name.
        var stray: (transaction: MarkupElement, parent: String)?
        func visit(_ element: MarkupElement) {
            for child in element.children where child.name != "INVSTMTMSGSRSV1" {
                if child.name == "STMTTRN" {
                    total += 1
                    if stray == nil, element.name != "BANKTRANLIST" { stray = (child, element.name) }
                }
                visit(child)
            }
        }
        visit(root)
        guard total != listed else { return }
        let strays = total - listed
        let place = stray.map { " (the first here, inside <\($0.parent)>)" } ?? ""
        throw BankStatementError(line: stray?.transaction.line, "\(strays) of the file's \(total) <STMTTRN> \(strays == 1 ? "is" : "are") not in a statement's <BANKTRANLIST>\(place): the file's structure was not understood, and importing the rest would leave \(strays == 1 ? "it" : "them") out")
    }

    /// The element tree, read as XML (OFX 2.x: `<?OFX …?>`) or SGML (OFX 1.x: `OFXHEADER:100`
    /// header lines, then the body from `<OFX>`).
    static func document(_ text: String) throws(BankStatementError) -> MarkupElement {
        guard let body = text.utf8.firstRange(of: "<OFX>".utf8) else {
            throw BankStatementError(line: nil, "not an OFX file: it has no <OFX> element")
        }
        let header = text[..<body.lowerBound]
        let headerLines = header.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        if header.contains("<?OFX") || header.contains("<?xml") {
            do {
                return try MarkupReader.read(Substring(text), dialect: .xml)
            } catch let xmlError {
                // Banks (Australian ones among them) put the OFX 2 header over an OFX 1 body
                // whose leaves are not closed (`<SEVERITY>INFO`): read the body as SGML then; when
                // that fails too, the XML error is the one the header asked for.
                guard let tree = try? MarkupReader.read(text[body.lowerBound...], dialect: .sgml, firstLine: headerLines + 1, grammar: sgmlGrammar) else {
                    throw xmlError
                }
                return tree
            }
        }
        // Lines split and counted by their "\n" bytes: "\r\n" is one Character, which a split on
        // "\n" would not see, and every line number after the header would be off.
        let firstField = header.split(whereSeparator: \.isNewline).lazy.map { $0.drop(while: { $0 == "\u{FEFF}" }).trimmingWhitespace() }.first { !$0.isEmpty }
        if let firstField, !firstField.hasPrefix("OFXHEADER:") {
            throw BankStatementError(line: 1, "not an OFX file: it starts with \"\(firstField.prefix(40))\", not OFXHEADER: or <?xml")
        }
        return try MarkupReader.read(text[body.lowerBound...], dialect: .sgml, firstLine: headerLines + 1, grammar: sgmlGrammar)
    }

    /// The aggregates of the OFX 1.x DTD on the way to a transaction, and where each may be:
    /// the specification lets a file leave any end tag out, and these are the ones whose absence
    /// would move transactions (a `<BANKTRANLIST>` never closed, a `<STMTTRN>` never closed
    /// before the next one). Elements not named here are told apart as before: a leaf holds
    /// text, an aggregate is closed by an end tag somewhere in the file.
    static let sgmlGrammar: MarkupReader.SGMLGrammar = {
        let statement: Set<String> = ["STMTRS", "CCSTMTRS"]
        let responses: Set<String> = ["SONRS", "STMTTRNRS", "CCSTMTTRNRS", "STMTENDTRNRS", "CCSTMTENDTRNRS", "INVSTMTTRNRS"]
        let parents: [String: Set<String>] = [
            "SIGNONMSGSRSV1": ["OFX"], "BANKMSGSRSV1": ["OFX"], "CREDITCARDMSGSRSV1": ["OFX"], "INVSTMTMSGSRSV1": ["OFX"], "SECLISTMSGSRSV1": ["OFX"],
            "SONRS": ["SIGNONMSGSRSV1"], "FI": ["SONRS"], "STATUS": responses,
            "STMTTRNRS": ["BANKMSGSRSV1"], "CCSTMTTRNRS": ["CREDITCARDMSGSRSV1"],
            "STMTRS": ["STMTTRNRS"], "CCSTMTRS": ["CCSTMTTRNRS"],
            "BANKACCTFROM": statement, "CCACCTFROM": statement, "BANKTRANLIST": statement, "LEDGERBAL": statement, "AVAILBAL": statement,
            "BALLIST": statement,
            "STMTTRN": ["BANKTRANLIST", "INVBANKTRAN"],
            "PAYEE": ["STMTTRN"], "BANKACCTTO": ["STMTTRN"], "CCACCTTO": ["STMTTRN"], "CURRENCY": ["STMTTRN"], "ORIGCURRENCY": ["STMTTRN"],
        ]
        return MarkupReader.SGMLGrammar(aggregates: Set(parents.keys).union(["OFX", "INVBANKTRAN"]), parents: parents)
    }()

    /// What a `STMTTRN` becomes.
    private enum Reading {
        case row(BankStatementRow)
        /// A transaction of zero (a card check, a fee waived), left out with a note: it records
        /// nothing, and refusing the statement for it would help no one. Its `TRNAMT`'s line.
        case zero(line: Int)
    }

    private static func row(
        _ transaction: MarkupElement, statementCurrency: Currency, rules: BankCSVRuleSet, keys: inout BankTransactionIdKeys
    ) throws(BankStatementError) -> Reading {
        let line = transaction.line
        func required(_ name: String) throws(BankStatementError) -> MarkupElement {
            guard let element = transaction.child(name), !element.value.isEmpty else {
                throw BankStatementError(line: line, "<STMTTRN> has no <\(name)>")
            }
            return element
        }
        if let corrected = transaction.value(at: "CORRECTFITID") {
            let action = transaction.value(at: "CORRECTACTION") ?? "REPLACE"
            throw BankStatementError(line: line, "<STMTTRN> corrects the transaction with FITID \"\(corrected)\" (CORRECTACTION \(action)): corrections are not applied by an import; change or delete that transaction yourself and remove this one from the file")
        }
        let posted = try required("DTPOSTED")
        let date = try Self.day(posted.value, line: posted.line)

        var currency = statementCurrency
        if let symbol = transaction.element(at: "CURRENCY/CURSYM") {
            currency = try Self.currency(symbol.value, element: "CURRENCY/CURSYM", line: symbol.line)
        }
        let amountElement = try required("TRNAMT")
        let decimal: Character = amountElement.value.contains(",") && !amountElement.value.contains(".") ? "," : "."
        let format = BankCSVAmountFormat(decimalSeparator: decimal, thousandsSeparator: nil)
        let value = try BankStatementAmount.minorUnits(amountElement.value, format: format, currency: currency, role: "amount", place: "in <TRNAMT>", line: amountElement.line)
        guard value != 0 else { return .zero(line: amountElement.line) }
        let kind: TransactionKind = value < 0 ? .expense : .income
        let amount = Money.format(minorUnits: value.magnitudeAsInt64, exponent: currency.exponent)

        let name = transaction.value(at: "NAME") ?? transaction.value(at: "PAYEE/NAME")
        let description = [name, transaction.value(at: "MEMO")].compactMap { $0 }.joined(separator: " ").collapsingWhitespace()
        let (category, tags) = rules.apply(description: description, kind: kind)
        let key = keys.next(id: transaction.value(at: "FITID"), date: date, kind: kind, amount: amount, currency: currency.code, description: description)
        return .row(BankStatementRow(line: line, date: date, kind: kind, amount: amount, currency: currency.code, description: description,
                                     categoryPath: category, tags: tags, importKey: key))
    }

    /// `YYYYMMDD[HHMMSS[.XXX]][[+-]h:TZ]` → the day as written. The time may be `HHMM` too, the
    /// offset may have a fraction (`+5.30`) and no zone name; anything else after the day is
    /// refused, since a date with trailing text is not a date this reader understood.
    static func day(_ text: String, line: Int) throws(BankStatementError) -> String {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy({ $0.asciiDigit != nil }), isTimeAndZone(text.dropFirst(8)) else {
            throw BankStatementError(line: line, "date \"\(text)\" in <DTPOSTED> is not YYYYMMDD[HHMMSS[.XXX]][[+-]h:TZ]")
        }
        guard case .date(let day) = try BankCSVDateFormat("YYYYMMDD").read(String(digits)) else {
            throw BankStatementError(line: line, "date \"\(text)\" in <DTPOSTED> is not a real calendar date")
        }
        return day
    }

    /// `[HHMM[SS[.XXX]]][[+-]h[.mm][:TZ]]`, each part optional.
    private static func isTimeAndZone(_ rest: Substring) -> Bool {
        var rest = rest
        func digits(_ maximum: Int = .max) -> Int {
            let count = rest.prefix(while: { $0.asciiDigit != nil }).prefix(maximum).count
            rest = rest.dropFirst(count)
            return count
        }
        let time = digits(6)
        guard time == 0 || time == 4 || time == 6 else { return false }
        if time == 6, rest.first == "." {
            rest = rest.dropFirst()
            guard digits(3) > 0 else { return false }
        }
        guard !rest.isEmpty else { return true }
        guard rest.first == "[", rest.last == "]" else { return false }
        rest = rest.dropFirst().dropLast()
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        guard digits(2) > 0 else { return false }
        if rest.first == "." {
            rest = rest.dropFirst()
            guard digits(2) > 0 else { return false }
        }
        if rest.first == ":" {
            rest = rest.dropFirst()
            return !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isLetter }
        }
        return rest.isEmpty
    }

    /// An ISO 4217 code, as OFX requires (`Currency` alone also takes longer custom codes).
    private static func currency(_ code: String, element: String, line: Int?) throws(BankStatementError) -> Currency {
        guard code.count == 3, let currency = try? Currency(code: code) else {
            throw BankStatementError(line: line, "\"\(code)\" in <\(element)> is not a currency code")
        }
        return currency
    }
}
