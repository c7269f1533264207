import FoundationEssentials

/// How to read one bank's CSV export: where each value is, and how dates and numbers are
/// written. Usually decoded from a JSON file the user keeps per bank (`decode(json:)`), or
/// guessed from the header when there is none (`detect(text:)`).
///
/// ```json
/// {
///   "delimiter": ";", "skipLines": 4,   (or "findHeader": true, to look for it)
///   "date": "Buchungstag", "dateFormat": "DD.MM.YYYY",
///   "amount": "Betrag", "decimalSeparator": ",", "thousandsSeparator": ".",
///   "currency": "Währung",
///   "description": ["Auftraggeber", "Verwendungszweck"],
///   "rules": [{ "contains": "lidl", "category": "Food:Groceries", "tags": ["groceries"] }]
/// }
/// ```
///
/// Keys not listed here are an error that names them: a typo silently ignored would import
/// with defaults the user thought they had changed.
public struct BankCSVMapping: Codable, Hashable, Sendable {
    /// Where the amount is: one signed column, or the two-column layout many banks use.
    public enum Amounts: Hashable, Sendable {
        case signed(BankCSVColumn)
        /// One of the two is filled per row; debit is money out (an expense), credit money in.
        case debitCredit(debit: BankCSVColumn, credit: BankCSVColumn)
    }

    public var delimiter: CSVDelimiter
    /// Whether the first record (after `skipLines`) names the columns. Without a header every
    /// column must be given by number.
    public var header: Bool
    /// Physical lines before the header (or the first row): a bank's preamble.
    public var skipLines: Int
    /// Whether the header is looked for instead of skipped to: the first record within the first
    /// `maximumPreambleLines + 1` lines that has every column named here, for banks whose
    /// preamble varies in length (`locatingHeader(in:)`). JSON key `findHeader`; not with `skipLines`.
    public var findHeader: Bool
    public var date: BankCSVColumn
    public var amounts: Amounts
    /// A currency code per row; rows where it is empty use the import's default currency.
    public var currency: BankCSVColumn?
    /// Joined with single spaces, empty cells left out. JSON key `description`.
    public var descriptionColumns: [BankCSVColumn]
    /// See `BankCSVDateFormat`.
    public var dateFormat: String
    /// "." or ",".
    public var decimalSeparator: String
    /// nil, ",", ".", " " or "'"; must differ from `decimalSeparator`.
    public var thousandsSeparator: String?
    /// For a signed amount: true (the default) reads a negative amount as an expense and a
    /// positive one as income, as a bank account statement does; false inverts it, for card
    /// statements that list spending as positive. Not used with debit/credit columns.
    public var negativeIsExpense: Bool
    public var rules: [BankCSVRule]

    public static let defaultDateFormat = "YYYY-MM-DD"
    static let decimalSeparators = [".", ","]
    static let thousandsSeparators = [",", ".", " ", "'"]

    public init(
        delimiter: CSVDelimiter = .comma,
        header: Bool = true,
        skipLines: Int = 0,
        date: BankCSVColumn,
        amounts: Amounts,
        currency: BankCSVColumn? = nil,
        description: [BankCSVColumn],
        dateFormat: String = BankCSVMapping.defaultDateFormat,
        decimalSeparator: String = ".",
        thousandsSeparator: String? = nil,
        negativeIsExpense: Bool = true,
        rules: [BankCSVRule] = [],
        findHeader: Bool = false
    ) {
        self.delimiter = delimiter
        self.header = header
        self.skipLines = skipLines
        self.date = date
        self.amounts = amounts
        self.currency = currency
        self.descriptionColumns = description
        self.dateFormat = dateFormat
        self.decimalSeparator = decimalSeparator
        self.thousandsSeparator = thousandsSeparator
        self.negativeIsExpense = negativeIsExpense
        self.rules = rules
        self.findHeader = findHeader
    }

    /// Decodes a mapping file, turning `DecodingError`s into one readable sentence that names the
    /// key at fault (`mapping: rules[1]: unknown key "catgory" …`).
    public static func decode(json: Data) throws(BankStatementError) -> BankCSVMapping {
        do {
            return try JSONDecoder().decode(BankCSVMapping.self, from: json)
        } catch let error as DecodingError {
            throw BankStatementError(line: nil, "mapping: " + Self.explain(error))
        } catch {
            throw BankStatementError(line: nil, "mapping: \(error)")
        }
    }

    /// Checks everything that can be checked without the file, so that a bad mapping fails
    /// before any row is read, with a message about the mapping rather than about line 2.
    public func validate() throws(BankStatementError) {
        guard skipLines >= 0 else { throw BankStatementError(line: nil, "skipLines must be 0 or more, not \(skipLines)") }
        if findHeader {
            guard skipLines == 0 else { throw BankStatementError(line: nil, "give \"findHeader\" or \"skipLines\", not both") }
            guard header, namedColumns.contains(where: { if case .name = $0.column { true } else { false } }) else {
                throw BankStatementError(line: nil, "\"findHeader\" needs a header and columns given by name, to know the header by")
            }
        }
        try date.validate(role: "date")
        switch amounts {
        case .signed(let column):
            try column.validate(role: "amount")
        case .debitCredit(let debit, let credit):
            try debit.validate(role: "debit")
            try credit.validate(role: "credit")
        }
        try currency?.validate(role: "currency")
        guard !descriptionColumns.isEmpty else { throw BankStatementError(line: nil, "\"description\" needs at least one column") }
        for column in descriptionColumns { try column.validate(role: "description") }
        if !header {
            for (role, column) in namedColumns {
                if case .name(let name) = column {
                    throw BankStatementError(line: nil, "the \(role) column is given by name (\"\(name)\") but \"header\" is false: give its number instead")
                }
            }
        }
        _ = try BankCSVDateFormat(dateFormat)
        guard Self.decimalSeparators.contains(decimalSeparator) else {
            throw BankStatementError(line: nil, "decimalSeparator \"\(decimalSeparator)\" is not \".\" or \",\"")
        }
        if let thousandsSeparator {
            guard Self.thousandsSeparators.contains(thousandsSeparator) else {
                throw BankStatementError(line: nil, "thousandsSeparator \"\(thousandsSeparator)\" is not one of \",\", \".\", \" \" or \"'\"")
            }
            guard thousandsSeparator != decimalSeparator else {
                throw BankStatementError(line: nil, "thousandsSeparator and decimalSeparator are both \"\(decimalSeparator)\"")
            }
        }
        for (index, rule) in rules.enumerated() {
            do {
                try rule.validate()
            } catch {
                throw BankStatementError(line: nil, "rule \(index + 1): \(error.message)")
            }
        }
    }

    /// Every column the mapping reads, with the role it plays (for messages).
    var namedColumns: [(role: String, column: BankCSVColumn)] {
        var columns: [(String, BankCSVColumn)] = [("date", date)]
        switch amounts {
        case .signed(let column): columns.append(("amount", column))
        case .debitCredit(let debit, let credit): columns += [("debit", debit), ("credit", credit)]
        }
        if let currency { columns.append(("currency", currency)) }
        columns += descriptionColumns.map { ("description", $0) }
        return columns
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case delimiter, header, skipLines, findHeader, date, amount, debit, credit, currency, description
        case dateFormat, decimalSeparator, thousandsSeparator, negativeIsExpense, rules
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, known: CodingKeys.allCases.map(\.rawValue), what: "the mapping")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        delimiter = try container.decodeIfPresent(CSVDelimiter.self, forKey: .delimiter) ?? .comma
        header = try container.decodeIfPresent(Bool.self, forKey: .header) ?? true
        skipLines = try container.decodeIfPresent(Int.self, forKey: .skipLines) ?? 0
        findHeader = try container.decodeIfPresent(Bool.self, forKey: .findHeader) ?? false
        date = try container.decode(BankCSVColumn.self, forKey: .date)
        let amount = try container.decodeIfPresent(BankCSVColumn.self, forKey: .amount)
        let debit = try container.decodeIfPresent(BankCSVColumn.self, forKey: .debit)
        let credit = try container.decodeIfPresent(BankCSVColumn.self, forKey: .credit)
        switch (amount, debit, credit) {
        case (let amount?, nil, nil):
            amounts = .signed(amount)
        case (nil, let debit?, let credit?):
            amounts = .debitCredit(debit: debit, credit: credit)
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "give either \"amount\" (one signed column) or both \"debit\" and \"credit\", not \(Self.given(amount, debit, credit))"
            ))
        }
        currency = try container.decodeIfPresent(BankCSVColumn.self, forKey: .currency)
        if let many = try? container.decode([BankCSVColumn].self, forKey: .description) {
            descriptionColumns = many
        } else {
            descriptionColumns = [try container.decode(BankCSVColumn.self, forKey: .description)]
        }
        dateFormat = try container.decodeIfPresent(String.self, forKey: .dateFormat) ?? Self.defaultDateFormat
        decimalSeparator = try container.decodeIfPresent(String.self, forKey: .decimalSeparator) ?? "."
        thousandsSeparator = try container.decodeIfPresent(String.self, forKey: .thousandsSeparator)
        negativeIsExpense = try container.decodeIfPresent(Bool.self, forKey: .negativeIsExpense) ?? true
        rules = try container.decodeIfPresent([BankCSVRule].self, forKey: .rules) ?? []
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(delimiter, forKey: .delimiter)
        try container.encode(header, forKey: .header)
        if skipLines != 0 { try container.encode(skipLines, forKey: .skipLines) }
        if findHeader { try container.encode(findHeader, forKey: .findHeader) }
        try container.encode(date, forKey: .date)
        switch amounts {
        case .signed(let column):
            try container.encode(column, forKey: .amount)
        case .debitCredit(let debit, let credit):
            try container.encode(debit, forKey: .debit)
            try container.encode(credit, forKey: .credit)
        }
        try container.encodeIfPresent(currency, forKey: .currency)
        if descriptionColumns.count == 1 {
            try container.encode(descriptionColumns[0], forKey: .description)
        } else {
            try container.encode(descriptionColumns, forKey: .description)
        }
        try container.encode(dateFormat, forKey: .dateFormat)
        try container.encode(decimalSeparator, forKey: .decimalSeparator)
        try container.encodeIfPresent(thousandsSeparator, forKey: .thousandsSeparator)
        try container.encode(negativeIsExpense, forKey: .negativeIsExpense)
        if !rules.isEmpty { try container.encode(rules, forKey: .rules) }
    }

    private static func given(_ amount: BankCSVColumn?, _ debit: BankCSVColumn?, _ credit: BankCSVColumn?) -> String {
        let names = [("amount", amount), ("debit", debit), ("credit", credit)].compactMap { $0.1 == nil ? nil : "\"\($0.0)\"" }
        return names.isEmpty ? "neither" : names.joined(separator: " and ") + " alone"
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "" : text + ": "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return path(context.codingPath) + "missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return path(context.codingPath) + "expected \(Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return path(context.codingPath) + "expected \(Self.typeName(type)), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, let underlying = context.underlyingError {
                return "not valid JSON: \(underlying)"
            }
            return path(context.codingPath) + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        case is [BankCSVRule].Type, is [String].Type, is [BankCSVColumn].Type: "an array"
        default: "a \(type)"
        }
    }
}
