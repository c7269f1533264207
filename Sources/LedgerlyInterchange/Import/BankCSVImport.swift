import LedgerlyCore

/// Reads a bank's CSV export into checked, normalised rows.
///
/// All or nothing: the first bad row throws, naming its line, the column and the text at
/// fault, and nothing is returned. A partial import of a bank statement leaves the wallet
/// disagreeing with the bank in a way that is hard to find later; a clear error on line 5001
/// is easy to fix in an editor and re-run.
public enum BankCSVImport {
    /// - Parameters:
    ///   - text: the whole file, already decoded to a String (the caller picks the encoding).
    ///   - mapping: how to read the file (its header looked for when it says `findHeader`); nil
    ///     guesses one with `BankCSVMapping.detect(text:)`, which refuses (asking for a mapping)
    ///     rather than guess when the file is ambiguous.
    ///   - defaultCurrency: for rows without a currency column or with it empty (usually the
    ///     target wallet's currency).
    public static func parse(text: String, mapping: BankCSVMapping?, defaultCurrency: String) throws(BankStatementError) -> [BankStatementRow] {
        let given = if let mapping { mapping } else { try BankCSVMapping.detect(text: text) }
        let mapping = try given.locatingHeader(in: text)
        try mapping.validate()
        let fallbackCurrency: Currency
        do {
            fallbackCurrency = try Currency(code: defaultCurrency)
        } catch {
            throw BankStatementError(line: nil, "default currency: \(error)")
        }
        var reader = CSVReader(text: text, delimiter: mapping.delimiter, skipLines: mapping.skipLines)
        var headerRecord: CSVRecord?
        if mapping.header {
            guard let record = try reader.next() else {
                throw BankStatementError(line: nil, "the file has no header line" + (mapping.skipLines > 0 ? " after the \(mapping.skipLines) skipped lines" : ""))
            }
            headerRecord = record
        }
        let columns = try BankCSVResolvedColumns(mapping: mapping, header: headerRecord)
        let dateFormat = try BankCSVDateFormat(mapping.dateFormat)
        let amountFormat = BankCSVAmountFormat(
            decimalSeparator: Character(mapping.decimalSeparator),
            thousandsSeparator: mapping.thousandsSeparator.map(Character.init)
        )
        let rules = try BankCSVRuleSet(mapping.rules)
        var fingerprints = BankCSVFingerprint()
        var currencies: [String: Currency] = [fallbackCurrency.code: fallbackCurrency]
        var rows: [BankStatementRow] = []

        while let record = try reader.next() {
            if record.isBlank { continue }
            let line = record.line

            let dateText = try columns.date.required(in: record).trimmingWhitespace()
            guard !dateText.isEmpty else { throw BankStatementError(line: line, "the date in \(columns.date.label) is empty") }
            let date: String
            switch dateFormat.read(dateText) {
            case .date(let iso): date = iso
            case .mismatch:
                throw BankStatementError(line: line, "date \"\(dateText)\" in \(columns.date.label) does not match the date format \"\(dateFormat.pattern)\"")
            case .notACalendarDate:
                throw BankStatementError(line: line, "date \"\(dateText)\" in \(columns.date.label) is not a real calendar date")
            }

            var currency = fallbackCurrency
            if let column = columns.currency {
                let code = column.optional(in: record).trimmingWhitespace().uppercased()
                if !code.isEmpty {
                    if let known = currencies[code] {
                        currency = known
                    } else {
                        do {
                            currency = try Currency(code: code)
                        } catch {
                            throw BankStatementError(line: line, "currency \"\(code)\" in \(column.label) is not a currency code")
                        }
                        currencies[code] = currency
                    }
                }
            }

            let (kind, money) = try amount(of: record, columns: columns, mapping: mapping, format: amountFormat, currency: currency)
            let description = columns.description
                .map { $0.optional(in: record).trimmingWhitespace() }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
                .collapsingWhitespace()
            let (category, tags) = rules.apply(description: description, kind: kind)
            let amountText = Money.format(minorUnits: money, exponent: currency.exponent)
            rows.append(BankStatementRow(
                line: line, date: date, kind: kind, amount: amountText, currency: currency.code,
                description: description, categoryPath: category, tags: tags,
                importKey: fingerprints.next(date: date, kind: kind, amount: amountText, currency: currency.code, description: description)
            ))
        }
        return rows
    }

    /// The row's kind and its positive amount in minor units.
    ///
    /// A zero amount is an error rather than a skipped row: the ledger cannot record a zero
    /// transaction, and dropping a row quietly would make "imported N rows" disagree with the
    /// statement the user is checking against. Zero rows are rare (a declined card payment,
    /// a fee waived) and the message tells which line to delete.
    private static func amount(
        of record: CSVRecord, columns: BankCSVResolvedColumns, mapping: BankCSVMapping, format: BankCSVAmountFormat, currency: Currency
    ) throws(BankStatementError) -> (TransactionKind, Int64) {
        let line = record.line
        switch columns.amounts {
        case .signed(let column):
            let text = try column.required(in: record)
            let value = try parseAmount(text, column: column, role: "amount", line: line, format: format, currency: currency)
            guard value != 0 else {
                throw BankStatementError(line: line, "amount \"\(text.trimmingWhitespace())\" in \(column.label) is zero: a transaction of nothing cannot be recorded; delete the line")
            }
            let negativeKind: TransactionKind = mapping.negativeIsExpense ? .expense : .income
            let positiveKind: TransactionKind = mapping.negativeIsExpense ? .income : .expense
            return (value < 0 ? negativeKind : positiveKind, value.magnitudeAsInt64)

        case .debitCredit(let debitColumn, let creditColumn):
            // The column decides the kind; a sign written in it is ignored, because banks write
            // money out as "12.50" and as "-12.50" in a debit column alike.
            let debitText = debitColumn.optional(in: record)
            let creditText = creditColumn.optional(in: record)
            let debit = debitText.trimmingWhitespace().isEmpty ? 0
                : try parseAmount(debitText, column: debitColumn, role: "debit", line: line, format: format, currency: currency)
            let credit = creditText.trimmingWhitespace().isEmpty ? 0
                : try parseAmount(creditText, column: creditColumn, role: "credit", line: line, format: format, currency: currency)
            switch (debit != 0, credit != 0) {
            case (true, false): return (.expense, debit.magnitudeAsInt64)
            case (false, true): return (.income, credit.magnitudeAsInt64)
            case (true, true):
                throw BankStatementError(line: line, "both debit \"\(debitText.trimmingWhitespace())\" in \(debitColumn.label) and credit \"\(creditText.trimmingWhitespace())\" in \(creditColumn.label) are filled: a row must be one or the other")
            case (false, false):
                throw BankStatementError(line: line, "neither debit (\(debitColumn.label)) nor credit (\(creditColumn.label)) has an amount: a transaction of nothing cannot be recorded; delete the line")
            }
        }
    }

    private static func parseAmount(
        _ text: String, column: BankCSVResolvedColumns.Resolved, role: String, line: Int, format: BankCSVAmountFormat, currency: Currency
    ) throws(BankStatementError) -> Int64 {
        try BankStatementAmount.minorUnits(text, format: format, currency: currency, role: role, place: "in \(column.label)", line: line)
    }
}
