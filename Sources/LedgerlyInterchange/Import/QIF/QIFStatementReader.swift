import LedgerlyCore
import LedgerlyProtocol

/// Reads a QIF file (Quicken Interchange Format) of a bank, credit-card, cash, other asset or
/// other liability account (`!Type:Bank`, `!Type:CCard`, `!Type:Cash`, `!Type:Oth A`,
/// `!Type:Oth L`, all written alike) into rows.
///
/// QIF has no currency and no transaction id, and its dates are ambiguous by design (Quicken
/// writes the user's locale: `01/05/2026` or `05.01.2026`, and two-digit years: `6/12/95`,
/// `1/ 5'26`, and from other programs `03/08/13` for 2013). So the rows are in the wallet's currency, keyed by the text
/// fingerprint, and the date pattern is given (`dateFormat`, the CSV mapping's tokens: `M/D/YYYY`,
/// `D.M.YYYY`, `M/D'YY`) or guessed from all the file's dates, refusing a file they leave
/// ambiguous rather than guessing. Spaces inside a date (Quicken pads days: `1/ 5'26`) are dropped
/// before it is read; `YY` is 20YY after `'` and otherwise the year ending in YY from this year
/// − 80 to this year + 19 (`BankCSVDateFormat.TwoDigitYears.quicken`; either of `/` and `'` is
/// read where the pattern has one of them, as a file across 2000 has both).
///
/// What a record becomes (docs/reports-import-export.md, "Bank formats"): `D` the day; `T` (or
/// `U` when there is no `T`) the signed amount, negative an expense, with decimal and grouping
/// marks told from the file's amounts as CSV detection does (`-1,234.56`); the description is
/// `P` (payee), `M` (memo) and `N` (number, as `#N`); `L` is the file's own category, kept in
/// `sourceCategory` for the CLI, and a class after `/` in it (`Food:Groceries/Holiday`) becomes a
/// tag; `S`/`E`/`$` are split parts, whose amounts must add up to `T`. `C` (cleared) and `A`
/// (address) are not read. Lists (`!Type:Cat`, `Class`, `Memorized`, `Security`, `Prices`,
/// `Tag`, `Bill`, `Invoice`), investment accounts (`!Type:Invst`, `!Type:Port`), `!Account`
/// blocks other than the one naming the account read, `!Option:` and `!Clear:` lines and `#`
/// comment lines are passed over, each said in a note with its line and how many records it
/// held. A record of zero is left out with a note, as OFX and CAMT leave theirs.
public enum QIFStatementReader {
    /// Tried in order when no pattern is given; see `BankDateFormatGuess`.
    static let candidateDateFormats = [
        "M/D/YYYY", "D/M/YYYY", "M/D'YY", "D/M'YY", "M/D'YYYY", "M/D/YY", "D/M/YY", "D.M.YYYY", "D.M.YY", "YYYY-MM-DD", "M-D-YYYY", "D-M-YYYY",
    ]

    /// - Parameters:
    ///   - dateFormat: the dates' pattern; nil guesses it from every date in the file.
    ///   - currency: the wallet's; QIF has none of its own.
    ///   - currentYear: the year two-digit years are read around (`BankCSVDateFormat.TwoDigitYears`);
    ///     nil is this year, in the local time zone.
    public static func parse(
        text: String, dateFormat: String?, currency code: String, rules: [BankCSVRule] = [], currentYear: Int? = nil
    ) throws(BankStatementError) -> BankStatement {
        let thisYear = currentYear ?? LedgerDate(Timestamp.today())?.year ?? 2026
        let twoDigitYears = BankCSVDateFormat.TwoDigitYears.quicken(currentYear: thisYear)
        let currency: Currency
        do {
            currency = try Currency(code: code)
        } catch {
            throw BankStatementError(line: nil, "currency: \(error)")
        }
        let file = try QIFFile(text: text)
        let pattern: String
        if let dateFormat {
            pattern = dateFormat
        } else {
            let dates = file.records.compactMap(\.date)
            switch try BankDateFormatGuess.guess(dates.map { Self.compact($0.text) }, lines: dates.map(\.line), candidates: candidateDateFormats, twoDigitYears: twoDigitYears) {
            case .format(let guessed): pattern = guessed
            case .noneFits(_, let line):
                let shown = dates.first { $0.line == line }?.text ?? ""
                throw BankStatementError(line: line, "date \"\(shown)\" is in no known format: give the dates' format with --date-format (e.g. M/D/YYYY, D.M.YYYY, M/D'YY)")
            case .ambiguous(let reading):
                throw BankStatementError(line: nil, "the dates are ambiguous: \(reading); give the format with --date-format")
            }
        }
        let format = try BankCSVDateFormat(pattern, twoDigitYears: twoDigitYears)
        let amountTexts = file.records.flatMap { record in [record.amount?.text].compactMap { $0 } + record.splits.compactMap { $0.amount?.text } }
        let separators = try BankCSVMapping.guessSeparators(amountTexts) { _ in "fix the file so its amounts are written one way" }
        let amountFormat = BankCSVAmountFormat(decimalSeparator: Character(separators.decimal), thousandsSeparator: separators.thousands.map(Character.init))
        let ruleSet = try BankCSVRuleSet(rules)
        var fingerprints = BankCSVFingerprint()
        var rows: [BankStatementRow] = []
        var zeroLines: [Int] = []
        /// Records of zero with split parts (that cancel out), left out with a note of their own.
        var zeroSplitLines: [Int] = []
        /// Dates whose two-digit year the window read (not Quicken's `'YY`, which is 20YY by its
        /// mark): the century chosen is said, never silent.
        var twoDigitYearDates: [(line: Int, text: String, date: String)] = []
        let hasTwoDigitYears = pattern.uppercased().contains("YY") && !pattern.uppercased().contains("YYYY")
        for record in file.records {
            guard let dateField = record.date else { throw BankStatementError(line: record.line, "the record has no date (D)") }
            let date: String
            switch format.read(Self.compact(dateField.text)) {
            case .date(let day): date = day
            case .mismatch: throw BankStatementError(line: dateField.line, "date \"\(dateField.text)\" does not match the date format \"\(pattern)\"")
            case .notACalendarDate: throw BankStatementError(line: dateField.line, "date \"\(dateField.text)\" is not a real calendar date (read as \(pattern))")
            }
            if hasTwoDigitYears, !dateField.text.contains("'") { twoDigitYearDates.append((dateField.line, dateField.text, date)) }
            guard let amountField = record.amount else { throw BankStatementError(line: record.line, "the record has no amount (T)") }
            let value = try BankStatementAmount.minorUnits(amountField.text, format: amountFormat, currency: currency, role: "amount", place: "in T", line: amountField.line)
            // An opening balance of zero, a voided cheque: left out with a note, as OFX and CAMT
            // leave theirs. A split whose parts cancel out is one too, and its own note says so:
            // its parts may move money between categories or wallets, which the user must know.
            guard value != 0 else {
                if record.splits.isEmpty { zeroLines.append(amountField.line) } else { zeroSplitLines.append(amountField.line) }
                continue
            }
            var splits: [BankStatementSplit] = []
            var splitSum: Int64 = 0
            var classTags: [String] = []
            for split in record.splits {
                guard let splitAmount = split.amount else { throw BankStatementError(line: split.line, "the split part has no amount ($)") }
                let minor = try BankStatementAmount.minorUnits(splitAmount.text, format: amountFormat, currency: currency, role: "split amount", place: "in $", line: splitAmount.line)
                splitSum = splitSum.addingReportingOverflow(minor).partialValue
                let (category, splitClass) = Self.categoryAndClass(split.category)
                if let splitClass { classTags.append(splitClass) }
                splits.append(BankStatementSplit(line: split.line, category: category ?? "", memo: split.memo, amount: Money.format(minorUnits: minor, exponent: currency.exponent)))
            }
            if !splits.isEmpty, splitSum != value {
                throw BankStatementError(line: record.line, "the split amounts add up to \(Money.format(minorUnits: splitSum, exponent: currency.exponent)) but T is \(amountField.text)")
            }
            let kind: TransactionKind = value < 0 ? .expense : .income
            let amount = Money.format(minorUnits: value.magnitudeAsInt64, exponent: currency.exponent)
            let description = [record.payee, record.memo, record.number.map { "#" + $0 }].compactMap { $0 }.joined(separator: " ").collapsingWhitespace()
            let (ruleCategory, ruleTags) = ruleSet.apply(description: description, kind: kind)
            let (sourceCategory, recordClass) = Self.categoryAndClass(record.category ?? "")
            var tags = ruleTags
            for tag in [recordClass].compactMap({ $0 }) + classTags where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.append(tag) }
            rows.append(BankStatementRow(
                line: record.line, date: date, kind: kind, amount: amount, currency: currency.code, description: description, categoryPath: ruleCategory, tags: tags,
                importKey: fingerprints.next(date: date, kind: kind, amount: amount, currency: currency.code, description: description),
                sourceCategory: sourceCategory, splits: splits))
        }
        var notes = file.notes
        if let first = twoDigitYearDates.first {
            notes.append(Self.twoDigitYearNote(twoDigitYearDates.map(\.date), first: first, currentYear: thisYear))
        }
        if !zeroLines.isEmpty {
            notes.append(BankStatement.leftOutNote(zeroLines, "record", "records", what: "of zero", advice: "a transaction of nothing cannot be recorded"))
        }
        if !zeroSplitLines.isEmpty {
            notes.append(BankStatement.leftOutNote(zeroSplitLines, "record", "records", what: "of zero with split parts",
                                                   advice: "a transaction of nothing cannot be recorded; its parts cancel out, and where they move money between categories or wallets, record that yourself"))
        }
        return BankStatement(currency: nil, account: file.account, rows: rows, notes: notes, entries: file.records.count)
    }

    /// The note saying how the window read two-digit years, with the years they became and the
    /// first date as an example: "2 dates have a two-digit year, read as 2013 to 2014 (the year
    /// ending in those digits from 1946 to 2045): line 11 "23/10/13" is 2013-10-23".
    static func twoDigitYearNote(_ dates: [String], first: (line: Int, text: String, date: String), currentYear: Int) -> String {
        let years = dates.map { $0.prefix(4) }
        let (earliest, latest) = (years.min() ?? "", years.max() ?? "")
        let start = BankCSVDateFormat.TwoDigitYears.windowStart(currentYear: currentYear)
        let read = earliest == latest ? "as \(earliest)" : "as \(earliest) to \(latest)"
        return "\(dates.count) date\(dates.count == 1 ? " has" : "s have") a two-digit year, read \(read) (the year ending in those digits from \(start) to \(start + 99)): line \(first.line) \"\(first.text)\" is \(first.date)"
    }

    /// `Food:Groceries/Holiday` → (`Food:Groceries`, `Holiday`); empty parts are nil.
    static func categoryAndClass(_ text: String) -> (category: String?, class: String?) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        let category = parts.first.flatMap { $0.isEmpty ? nil : $0 }
        let tagClass = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        return (category, tagClass)
    }

    private static func compact(_ date: String) -> String {
        date.filter { $0 != " " }
    }
}
