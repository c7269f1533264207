import LedgerlyCore

/// Reads an ISO 20022 bank-to-customer statement (camt.053, `BkToCstmrStmt`, versions .001.02 to
/// .001.08) into rows. Elements are matched by local name, whatever their namespace prefix, since
/// the versions differ in their namespace URI and in a few paths, which are read both ways
/// (`Sts` or `Sts/Cd`, `Cdtr/Nm` or `Cdtr/Pty/Nm`, `TxDtls/Amt` or `TxDtls/AmtDtls/TxAmt/Amt`).
///
/// What an entry (`Ntry`) becomes (docs/reports-import-export.md, "Bank formats"):
/// - only booked entries (`BOOK`) are read; pending (`PDNG`) and information-only ones are left
///   out and listed in the statement's notes, to be imported from a later statement once booked;
///   so are entries of zero, which record nothing;
/// - the day is `BookgDt` (`Dt`, or the date part of `DtTm`), else `ValDt`; the direction is
///   `CdtDbtInd` (`CRDT` income, `DBIT` expense; a reversal carries the reversed direction
///   there already); the amount and its currency are `Amt` and its `Ccy`;
/// - an entry with several transactions (`NtryDtls/TxDtls`, a batch) becomes one row per
///   transaction when every transaction has its own amount in the entry's currency and they
///   add up (by their own direction) to the entry's amount, so each payment keeps its
///   counterparty and text; otherwise it stays one row of the entry's amount, because the
///   booked entry is what the account moved by;
/// - the description is the counterparty's name (`RltdPties/Cdtr` for money out, `Dbtr` for
///   money in) and the unstructured remittance text (`RmtInf/Ustrd`), else `AddtlTxInf`, else
///   the entry's `AddtlNtryInf`;
/// - the import key is built from the booking day and the bank's reference: for an entry kept
///   whole the entry's `AcctSvcrRef`, else its one transaction's `Refs/AcctSvcrRef`; for each
///   part of a split batch the transaction's own `Refs/AcctSvcrRef`, else the entry's with the
///   part's position (`R3/2`). A reference written as `NONREF` or `NOTPROVIDED` (or blank) is none,
///   and then the text fingerprint is the key. `EndToEndId` is not used: payers reuse it and write
///   `NOTPROVIDED`.
public enum CAMTStatementReader {
    /// - Parameters:
    ///   - rules: the CSV mapping's rules, applied to each description.
    ///   - account: the IBAN (or other id) to read when the file holds statements of several accounts.
    public static func parse(text: String, rules: [BankCSVRule] = [], account: String? = nil) throws(BankStatementError) -> BankStatement {
        let root = try MarkupReader.read(Substring(text), dialect: .xml)
        guard let message = root.name == "BkToCstmrStmt" ? root : root.child("BkToCstmrStmt") else {
            let found = root.children.first?.name ?? root.name
            let hint = found == "BkToCstmrAcctRpt" ? " (camt.052, an intraday report)" : found == "BkToCstmrDbtCdtNtfctn" ? " (camt.054, a notification)" : ""
            throw BankStatementError(line: root.line, "not a camt.053 statement: <\(found)>\(hint) instead of <BkToCstmrStmt>")
        }
        var statements = message.children("Stmt").map { ($0, $0.value(at: "Acct/Id/IBAN") ?? $0.value(at: "Acct/Id/Othr/Id") ?? "") }
        guard !statements.isEmpty else { throw BankStatementError(line: message.line, "<BkToCstmrStmt> holds no <Stmt>") }
        if let account {
            statements = statements.filter { $0.1.replacingSpaces() == account.replacingSpaces() }
            guard !statements.isEmpty else { throw BankStatementError(line: nil, "the file holds no statement of account \"\(account)\"") }
        }
        let accounts = Array(Set(statements.map(\.1))).sorted()
        guard accounts.count == 1 else {
            throw BankStatementError(line: nil, "the file holds statements of \(accounts.count) accounts (\(accounts.map { "\"\($0)\"" }.joined(separator: ", "))): choose one with --account")
        }

        var reader = EntryReader(rules: try BankCSVRuleSet(rules))
        var accountCurrencies: Set<String> = []
        for (statement, _) in statements {
            if let code = statement.value(at: "Acct/Ccy") { accountCurrencies.insert(code.uppercased()) }
            for entry in statement.children("Ntry") { try reader.read(entry) }
        }
        guard accountCurrencies.count <= 1 else {
            throw BankStatementError(line: nil, "the statements give the account the currencies \(accountCurrencies.sorted().joined(separator: " and "))")
        }
        let rowCurrencies = Set(reader.rows.map(\.currency))
        let currency = accountCurrencies.first ?? (rowCurrencies.count == 1 ? rowCurrencies.first : nil)
        var notes: [String] = []
        if !reader.unbooked.isEmpty {
            let statuses = Set(reader.unbooked.map(\.status)).sorted().joined(separator: ", ")
            notes.append(BankStatement.leftOutNote(reader.unbooked.map(\.line), "entry", "entries", what: "not booked (\(statuses))", advice: "import a later statement once booked"))
        }
        if !reader.zero.isEmpty {
            notes.append(BankStatement.leftOutNote(reader.zero, "entry", "entries", what: "of zero", advice: "a transaction of nothing cannot be recorded"))
        }
        return BankStatement(currency: currency, account: accounts[0].isEmpty ? nil : accounts[0], rows: reader.rows, notes: notes,
                             entries: statements.reduce(0) { $0 + $1.0.children("Ntry").count })
    }

    /// Turns entries into rows, keeping the state that spans them (the keys).
    private struct EntryReader {
        let rules: BankCSVRuleSet
        var keys = BankTransactionIdKeys(format: "camt")
        var rows: [BankStatementRow] = []
        var unbooked: [(line: Int, status: String)] = []
        /// The `Amt` lines of booked entries of zero, left out: they record nothing.
        var zero: [Int] = []

        init(rules: BankCSVRuleSet) {
            self.rules = rules
        }

        mutating func read(_ entry: MarkupElement) throws(BankStatementError) {
            if let own = entry.value(at: "Sts/Prtry") {
                // A bank's own status says nothing this reader can trust about booking; leaving the
                // entry out or taking it in would both be a guess.
                throw BankStatementError(line: entry.child("Sts")?.line ?? entry.line, "<Ntry> has the bank's own status \"\(own)\" (<Sts><Prtry>), not a code of the standard (BOOK, PDNG, INFO): which entries are booked cannot be told")
            }
            guard let status = entry.value(at: "Sts/Cd") ?? entry.value(at: "Sts") else {
                throw BankStatementError(line: entry.line, "<Ntry> has no <Sts> (booked or pending)")
            }
            guard status == "BOOK" else {
                unbooked.append((entry.line, status))
                return
            }
            let (amount, currency) = try Self.amount(entry, what: "<Ntry>")
            guard amount != 0 else {
                zero.append(entry.child("Amt")?.line ?? entry.line)
                return
            }
            let kind = try Self.kind(entry, what: "<Ntry>")
            guard let dateElement = entry.element(at: "BookgDt") ?? entry.element(at: "ValDt") else {
                throw BankStatementError(line: entry.line, "<Ntry> has neither <BookgDt> nor <ValDt>")
            }
            let date = try Self.day(dateElement)
            let entryReference = Self.reference(entry, at: "AcctSvcrRef")
            let transactions = entry.children("NtryDtls").flatMap { $0.children("TxDtls") }

            if transactions.count > 1, let parts = Self.parts(transactions, entryAmount: amount, entryKind: kind, currency: currency) {
                for (index, (transaction, part)) in zip(transactions, parts).enumerated() {
                    let reference = Self.reference(transaction, at: "Refs/AcctSvcrRef") ?? entryReference.map { "\($0)/\(index + 1)" }
                    try append(line: transaction.line, date: date, kind: part.kind, minorUnits: part.minorUnits, currency: currency,
                               description: Self.description(of: transaction, kind: part.kind), reference: reference)
                }
                return
            }
            let description: String
            if transactions.count == 1 {
                let details = Self.description(of: transactions[0], kind: kind)
                description = details.isEmpty ? entry.value(at: "AddtlNtryInf") ?? "" : details
            } else {
                description = entry.value(at: "AddtlNtryInf") ?? transactions.map { Self.description(of: $0, kind: kind) }.filter { !$0.isEmpty }.joined(separator: "; ")
            }
            let reference = entryReference ?? (transactions.count == 1 ? Self.reference(transactions[0], at: "Refs/AcctSvcrRef") : nil)
            try append(line: entry.line, date: date, kind: kind, minorUnits: amount, currency: currency, description: description, reference: reference)
        }

        private mutating func append(
            line: Int, date: String, kind: TransactionKind, minorUnits: Int64, currency: Currency, description rawDescription: String, reference: String?
        ) throws(BankStatementError) {
            let description = rawDescription.collapsingWhitespace()
            let amount = Money.format(minorUnits: minorUnits, exponent: currency.exponent)
            let (category, tags) = rules.apply(description: description, kind: kind)
            // The day is part of the id: some banks number their references per day.
            let key = keys.next(id: reference.map { "\(date):\($0)" }, date: date, kind: kind, amount: amount, currency: currency.code, description: description)
            rows.append(BankStatementRow(line: line, date: date, kind: kind, amount: amount, currency: currency.code, description: description,
                                         categoryPath: category, tags: tags, importKey: key))
        }

        /// Written where a bank has no reference; as an id it would be shared by unrelated entries.
        static let placeholderReferences: Set<String> = ["NONREF", "NOTPROVIDED"]

        /// The bank's reference at `path`; nil when missing, blank or a placeholder.
        private static func reference(_ element: MarkupElement, at path: String) -> String? {
            guard let reference = element.value(at: path), !placeholderReferences.contains(reference.uppercased()) else { return nil }
            return reference
        }

        /// Each transaction's own amount and direction, when all have a usable one (not zero, in
        /// the entry's currency) and they add up to the entry; nil otherwise (the entry stays one
        /// row). A part's amount or direction that cannot be read only means the batch cannot be
        /// split, not that the booked entry is wrong, so it is not an error.
        private static func parts(
            _ transactions: [MarkupElement], entryAmount: Int64, entryKind: TransactionKind, currency: Currency
        ) -> [(kind: TransactionKind, minorUnits: Int64)]? {
            var parts: [(kind: TransactionKind, minorUnits: Int64)] = []
            var signedSum: Int64 = 0
            for transaction in transactions {
                guard let holder = transaction.child("Amt") != nil ? transaction : transaction.element(at: "AmtDtls/TxAmt") else { return nil }
                guard let (amount, partCurrency) = try? Self.amount(holder, what: "<TxDtls>"), amount != 0, partCurrency == currency else { return nil }
                let kind: TransactionKind
                if transaction.child("CdtDbtInd") == nil {
                    kind = entryKind
                } else if let own = try? Self.kind(transaction, what: "<TxDtls>") {
                    kind = own
                } else {
                    return nil
                }
                parts.append((kind, amount))
                let (sum, overflow) = signedSum.addingReportingOverflow(kind == .income ? amount : -amount)
                guard !overflow else { return nil }
                signedSum = sum
            }
            return signedSum == (entryKind == .income ? entryAmount : -entryAmount) ? parts : nil
        }

        /// `Amt` of `element` with its `Ccy`, in minor units (positive: CAMT amounts carry no sign).
        private static func amount(_ element: MarkupElement, what: String) throws(BankStatementError) -> (Int64, Currency) {
            guard let amount = element.child("Amt") else { throw BankStatementError(line: element.line, "\(what) has no <Amt>") }
            guard let code = amount.attributes["Ccy"], !code.isEmpty else {
                throw BankStatementError(line: amount.line, "<Amt> \"\(amount.value)\" has no Ccy attribute (its currency)")
            }
            let currency: Currency
            do {
                currency = try Currency(code: code.uppercased())
            } catch {
                throw BankStatementError(line: amount.line, "Ccy=\"\(code)\" of <Amt> is not a currency code")
            }
            guard amount.value.first.map({ $0.asciiDigit != nil }) ?? false else {
                throw BankStatementError(line: amount.line, "amount \"\(amount.value)\" in <Amt> is not a plain decimal (CAMT amounts have no sign: <CdtDbtInd> gives the direction)")
            }
            let value = try BankStatementAmount.minorUnits(amount.value, format: BankCSVAmountFormat(decimalSeparator: ".", thousandsSeparator: nil), currency: currency,
                                                           role: "amount", place: "in <Amt>", line: amount.line)
            return (value, currency)
        }

        private static func kind(_ element: MarkupElement, what: String) throws(BankStatementError) -> TransactionKind {
            switch element.value(at: "CdtDbtInd") {
            case "CRDT": return .income
            case "DBIT": return .expense
            case let other:
                throw BankStatementError(line: element.child("CdtDbtInd")?.line ?? element.line, "\(what) has <CdtDbtInd> \"\(other ?? "")\", not CRDT or DBIT")
            }
        }

        /// The day of a `BookgDt` or `ValDt`: its `Dt`, or the date part of its `DtTm`.
        private static func day(_ element: MarkupElement) throws(BankStatementError) -> String {
            guard let dateElement = element.child("Dt") ?? element.child("DtTm") else {
                throw BankStatementError(line: element.line, "<\(element.name)> has neither <Dt> nor <DtTm>")
            }
            let text = dateElement.value
            switch try BankCSVDateFormat("YYYY-MM-DD").read(String(text.prefix(10))) {
            case .date(let day) where text.count == 10 || (dateElement.name == "DtTm" && text.dropFirst(10).first == "T"):
                return day
            case .notACalendarDate:
                throw BankStatementError(line: dateElement.line, "date \"\(text)\" in <\(element.name)/\(dateElement.name)> is not a real calendar date")
            default:
                throw BankStatementError(line: dateElement.line, "date \"\(text)\" in <\(element.name)/\(dateElement.name)> is not YYYY-MM-DD\(dateElement.name == "DtTm" ? "Thh:mm:ss" : "")")
            }
        }

        /// The counterparty and the remittance text of a transaction.
        private static func description(of transaction: MarkupElement, kind: TransactionKind) -> String {
            let party = kind == .expense ? "Cdtr" : "Dbtr"
            let name = transaction.value(at: "RltdPties/\(party)/Nm") ?? transaction.value(at: "RltdPties/\(party)/Pty/Nm")
            let remittance = transaction.element(at: "RmtInf")?.children("Ustrd").map(\.value).filter { !$0.isEmpty } ?? []
            let parts = [name].compactMap { $0 } + remittance
            return (parts.isEmpty ? [transaction.value(at: "AddtlTxInf")].compactMap { $0 } : parts).joined(separator: " ")
        }
    }
}

private extension String {
    /// An IBAN as printed (`DE89 3704 …`) and as stored (`DE893704…`) compare equal.
    func replacingSpaces() -> String { filter { $0 != " " } }
}
