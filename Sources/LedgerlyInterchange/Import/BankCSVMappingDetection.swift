import FoundationEssentials
import LedgerlyCore

/// Guessing a mapping when the user has none, from the header's wording and the first rows.
///
/// The guess is only as bold as the file allows: a date format that more than one pattern
/// reads differently (03/04/2026: March or April?) or amounts that mix decimal commas and
/// points are errors asking for a mapping file, never a coin toss, because a wrong guess would
/// import plausible-looking wrong transactions. The guessed mapping is an ordinary
/// `BankCSVMapping`, so a caller can show it (encode it to JSON) as a starting point.
extension BankCSVMapping {
    // Header names, compared lower-cased: English, then German, French and Spanish. Within a
    // list the order is the preference: a booking date before a value date (the day the bank
    // booked is the one statements and balances agree on).
    //
    // The other languages' names are consulted for a role only when the English ones find nothing
    // for it (the amount, signed or as debit and credit, is one role; so is the description, payee
    // and text together). A header the English names read keeps the mapping it had before the
    // others were added, and with it every row's fingerprint: `Date,Payee,Amount,Detail` is still
    // described by Payee alone, not by Payee and the French "détail", which would make an
    // overlapping statement import again in full.
    typealias HeaderNames = (english: [String], others: [String])
    static let dateNames: HeaderNames = (
        ["date", "booking date", "transaction date", "value date", "posting date", "posted date"],
        ["buchungstag", "buchungsdatum", "buchung", "datum", "wertstellung", "valuta", "valutadatum",
         "date opération", "date operation", "date de l'opération", "date comptable", "date de valeur", "date valeur",
         "fecha", "fecha operación", "fecha operacion", "fecha contable", "fecha valor", "f. valor"]
    )
    static let amountNames: HeaderNames = (["amount", "value", "transaction amount"], ["betrag", "umsatz", "montant", "importe", "cantidad"])
    static let debitNames: HeaderNames = (
        ["debit", "withdrawal", "withdrawals", "money out", "paid out", "debit amount"],
        ["soll", "belastung", "débit", "montant débit", "cargo", "cargos", "debe"]
    )
    static let creditNames: HeaderNames = (
        ["credit", "deposit", "deposits", "money in", "paid in", "credit amount"],
        ["haben", "gutschrift", "crédit", "montant crédit", "abono", "abonos", "haber"]
    )
    static let currencyNames: HeaderNames = (["currency", "ccy"], ["währung", "waehrung", "devise", "divisa", "moneda"])
    /// Who was paid; put before the free text when both exist ("LIDL Berlin" + "card 1234").
    static let payeeNames: HeaderNames = (
        ["payee", "name", "counterparty"],
        ["auftraggeber/empfänger", "auftraggeber / empfänger", "empfänger", "auftraggeber", "zahlungsempfänger", "name zahlungsbeteiligter",
         "auftraggeber / begünstigter", "begünstigter/zahlungspflichtiger", "beguenstigter/zahlungspflichtiger",
         "bénéficiaire", "beneficiaire", "tiers", "beneficiario", "ordenante"]
    )
    static let textNames: HeaderNames = (
        ["description", "memo", "narrative", "details", "text"],
        ["verwendungszweck", "buchungstext", "umsatztext",
         "libellé", "libelle", "libellé opération", "libelle operation", "détail", "detail",
         "concepto", "descripción", "descripcion", "movimiento"]
    )

    /// Tried in order; the first that reads every sampled date is taken, unless another one
    /// that also reads them all gives a different day for one of them (then it is ambiguous).
    /// `D`/`M` rather than `DD`/`MM` so that "3/5/2026" and "03/05/2026" both fit.
    static let candidateDateFormats = [
        "YYYY-MM-DD", "YYYY-M-D", "YYYY/M/D", "YYYYMMDD",
        "D/M/YYYY", "M/D/YYYY", "D.M.YYYY", "D-M-YYYY", "M-D-YYYY",
        "D/M/YY", "M/D/YY", "D.M.YY",
    ]

    /// How many rows `detect(text:)` samples for the date and number formats. The import itself
    /// still checks every row against the guess.
    static let sampleRows = 2_000

    /// A mapping for a file whose header is `header`, with formats guessed from `rows` (data
    /// rows, without the header). Delimiter and `skipLines` keep their defaults; see
    /// `detect(text:)` to guess those too.
    public static func detect(header: [String], rows: [[String]] = []) throws(BankStatementError) -> BankCSVMapping {
        try detect(header: header, rows: rows, lines: nil)
    }

    /// - Parameter lines: each row's line in the file, to name the one at fault; nil when unknown.
    static func detect(header: [String], rows: [[String]], lines: [Int]?) throws(BankStatementError) -> BankCSVMapping {
        let names = header.map(Self.detectionName)
        var used: Set<Int> = []
        func find(_ candidates: [String]) -> Int? {
            for candidate in candidates {
                if let index = names.indices.first(where: { !used.contains($0) && names[$0] == candidate }) {
                    used.insert(index)
                    return index
                }
            }
            // "Amount (EUR)", "Date [UTC]": the known name with a bracketed qualifier. Not any
            // longer name: "value date" must not be taken for the amount column "value".
            for candidate in candidates {
                if let index = names.indices.first(where: { index in
                    !used.contains(index) && ["(", " (", "[", " ["].contains { names[index].hasPrefix(candidate + $0) }
                }) {
                    used.insert(index)
                    return index
                }
            }
            return nil
        }
        /// The role's column by its English names, else by the others'.
        func find(_ names: HeaderNames) -> Int? {
            find(names.english) ?? find(names.others)
        }
        /// A signed amount column, else a debit and a credit column, in one language list.
        func findAmounts(_ list: KeyPath<HeaderNames, [String]>) -> (amount: Int?, debit: Int?, credit: Int?)? {
            if let amount = find(amountNames[keyPath: list]) { return (amount, nil, nil) }
            let debit = find(debitNames[keyPath: list])
            let credit = find(creditNames[keyPath: list])
            guard let debit, let credit else {
                used.subtract([debit, credit].compactMap { $0 })
                return nil
            }
            return (nil, debit, credit)
        }
        let listed = header.map { "\"\($0.trimmingWhitespace())\"" }.joined(separator: ", ")
        guard let dateIndex = find(dateNames) else {
            throw BankStatementError(line: nil, "no date column found in the header (\(listed)): write a mapping file")
        }
        guard let (amountIndex, debitIndex, creditIndex) = findAmounts(\.english) ?? findAmounts(\.others) else {
            throw BankStatementError(line: nil, "no amount column (nor a debit and a credit column) found in the header (\(listed)): write a mapping file")
        }
        let currencyIndex = find(currencyNames)
        var descriptionIndices = [find(payeeNames.english), find(textNames.english)].compactMap { $0 }
        if descriptionIndices.isEmpty {
            descriptionIndices = [find(payeeNames.others), find(textNames.others)].compactMap { $0 }
        }
        guard !descriptionIndices.isEmpty else {
            throw BankStatementError(line: nil, "no description column (description, payee, memo, text, Verwendungszweck, Libellé, Concepto …) found in the header (\(listed)): write a mapping file")
        }

        func column(_ index: Int) -> BankCSVColumn {
            let name = names[index]
            let unique = header.filter { BankCSVColumn.normalized($0) == BankCSVColumn.normalized(header[index]) }.count == 1
            return unique && !name.isEmpty ? .name(header[index].trimmingWhitespace()) : .index(index + 1)
        }

        let amounts: Amounts = if let amountIndex {
            .signed(column(amountIndex))
        } else {
            // findAmounts gives either an amount or both of these.
            .debitCredit(debit: column(debitIndex!), credit: column(creditIndex!))
        }
        /// The column's non-empty cells, with their lines when known.
        func cells(_ index: Int) -> (texts: [String], lines: [Int]?) {
            let found = rows.indices.lazy.filter { index < rows[$0].count }.map { (rows[$0][index].trimmingWhitespace(), lines?[$0]) }.filter { !$0.0.isEmpty }
            return (found.map(\.0), lines == nil ? nil : found.compactMap(\.1))
        }
        let dates = cells(dateIndex)
        let dateFormat = try guessDateFormat(dates.texts, lines: dates.lines, column: header[dateIndex])
        let amountCells = [amountIndex, debitIndex, creditIndex].compactMap { $0 }.flatMap { cells($0).texts }
        let (decimal, thousands) = try guessSeparators(amountCells)

        let mapping = BankCSVMapping(
            date: column(dateIndex),
            amounts: amounts,
            currency: currencyIndex.map(column),
            description: descriptionIndices.map(column),
            dateFormat: dateFormat,
            decimalSeparator: decimal,
            thousandsSeparator: thousands
        )
        try mapping.validate()
        return mapping
    }

    /// A mapping for `text` with the delimiter, preamble length, columns and formats guessed.
    ///
    /// The header is the first record, within the first `maximumPreambleLines + 1` lines, in which
    /// a date, an amount and a description column are found; when several delimiters find one
    /// on the same line, the one splitting it into more fields wins (a `;` file whose
    /// descriptions contain commas).
    public static func detect(text: String) throws(BankStatementError) -> BankCSVMapping {
        let bytes = Array(text.utf8)
        var firstError: BankStatementError?
        for skip in 0...maximumPreambleLines {
            var best: (delimiter: CSVDelimiter, reader: CSVReader, header: CSVRecord)?
            for delimiter in CSVDelimiter.allCases {
                var reader = CSVReader(bytes: bytes, delimiter: delimiter, skipLines: skip)
                guard let header = try? reader.next() else { continue }
                if header.fields.count < 2 {
                    continue
                }
                do {
                    _ = try detect(header: header.fields)
                } catch {
                    if skip == 0, firstError == nil || delimiter == .comma { firstError = BankStatementError(line: header.line, error.message) }
                    continue
                }
                if best == nil || header.fields.count > best!.header.fields.count {
                    best = (delimiter, reader, header)
                }
            }
            guard let best else { continue }
            var reader = best.reader
            var rows: [[String]] = []
            var lines: [Int] = []
            while rows.count < sampleRows, let record = try reader.next() {
                if !record.isBlank {
                    rows.append(record.fields)
                    lines.append(record.line)
                }
            }
            var mapping = try detect(header: best.header.fields, rows: rows, lines: lines)
            mapping.delimiter = best.delimiter
            mapping.skipLines = best.header.line - 1
            return mapping
        }
        throw firstError ?? BankStatementError(line: nil, "no header with a date, an amount and a description column in the first \(maximumPreambleLines + 1) lines: write a mapping file")
    }

    private static func detectionName(_ name: String) -> String {
        BankCSVColumn.normalized(name)
            .replacingEvery("_", with: " ")
            .collapsingWhitespace()
    }

    static func guessDateFormat(_ cells: [String], lines: [Int]?, column: String) throws(BankStatementError) -> String {
        let name = column.trimmingWhitespace()
        switch try BankDateFormatGuess.guess(cells, lines: lines, candidates: candidateDateFormats) {
        case .format(let pattern):
            return pattern
        case .noneFits(let example, let line):
            throw BankStatementError(line: line, "date \"\(example)\" in column \"\(name)\" is in no known format: write a mapping file with \"dateFormat\"")
        case .ambiguous(let reading):
            throw BankStatementError(line: nil, "the dates in column \"\(name)\" are ambiguous: \(reading); write a mapping file with \"dateFormat\"")
        }
    }

    /// Decimal and thousands separators from how the amounts are written.
    ///
    /// The last `,` or `.` in an amount is its decimal separator when both appear, when it is
    /// followed by other than three digits ("12,34", "5.5"), or when the other one repeats
    /// ("1.234.567" is grouped). A lone separator followed by exactly three digits ("1,234") says
    /// nothing on its own. With no evidence at all the point wins, as in the mapping's default.
    /// - Parameter advice: what the user can do when the amounts do not tell, given the setting.
    static func guessSeparators(
        _ cells: [String], advice: (String) -> String = { "write a mapping file with \"\($0)\"" }
    ) throws(BankStatementError) -> (decimal: String, thousands: String?) {
        var commaExamples: [String] = []
        var pointExamples: [String] = []
        for cell in cells {
            let characters = Array(cell)
            let commas = characters.filter { $0 == "," }.count
            let points = characters.filter { $0 == "." }.count
            let decimal: Character?
            if commas > 0, points > 0 {
                decimal = characters.last(where: { $0 == "," || $0 == "." })
            } else if commas > 1 || points > 1 {
                decimal = commas > 1 ? "." : ","
            } else if let index = characters.lastIndex(where: { $0 == "," || $0 == "." }),
                      characters[(index + 1)...].prefix(while: { $0.asciiDigit != nil }).count != 3 {
                decimal = characters[index]
            } else {
                decimal = nil
            }
            if decimal == "," { commaExamples.append(cell) }
            if decimal == "." { pointExamples.append(cell) }
        }
        if let comma = commaExamples.first, let point = pointExamples.first {
            throw BankStatementError(line: nil, "the amounts mix decimal commas (\"\(comma)\") and decimal points (\"\(point)\"): \(advice("decimalSeparator"))")
        }
        let decimal: Character = commaExamples.isEmpty ? "." : ","
        var thousands: Set<Character> = []
        for cell in cells {
            let characters = Array(cell)
            let end = characters.lastIndex(of: decimal) ?? characters.endIndex
            for index in characters.indices where index > 0 && index < end - 1 {
                let character = characters[index]
                guard [",", ".", " ", "'", "\u{00A0}", "\u{202F}"].contains(character), character != decimal,
                      characters[index - 1].asciiDigit != nil, characters[index + 1].asciiDigit != nil
                else { continue }
                thousands.insert(character == "\u{00A0}" || character == "\u{202F}" ? " " : character)
            }
        }
        guard thousands.count <= 1 else {
            throw BankStatementError(line: nil, "the amounts use more than one thousands separator (\(thousands.map { "\"\($0)\"" }.sorted().joined(separator: ", "))): \(advice("thousandsSeparator"))")
        }
        return (String(decimal), thousands.first.map(String.init))
    }
}
