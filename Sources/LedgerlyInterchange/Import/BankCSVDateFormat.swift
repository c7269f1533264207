import LedgerlyCore

/// A date pattern such as `DD/MM/YYYY`, `M/D/YY` or `D.M.YYYY`, and the parser it compiles to.
///
/// Tokens: `YYYY` (four-digit year), `YY` (two digits, read as 20YY: bank exports do not reach
/// back into the 1900s; QIF reads them in a window around today, see `TwoDigitYears`), `MM`/`DD` (exactly two digits), `M`/`D` (one or two digits); any other
/// non-letter is a literal that must appear as written. Letters are accepted in either case
/// ("dd/mm/yyyy" is how many people write it) but other letters are refused, so a typo is an
/// error rather than a pattern that never matches.
///
/// A pattern, not `DateFormatter`: formatters depend on locale and time zone, accept partial
/// input and roll Feb 30 over to March 2, while a ledger day must be exactly what the bank wrote
/// or an error. A time of day after the date (`2026-03-05 10:22:01`, `2026-03-05T10:22Z`) is
/// dropped, since the ledger records days.
public struct BankCSVDateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case year4, year2
        case month(variable: Bool), day(variable: Bool)
        case literal([UInt8])

        var isNumber: Bool { if case .literal = self { false } else { true } }
        var isVariable: Bool {
            switch self {
            case .month(let variable), .day(let variable): variable
            default: false
            }
        }
    }

    /// What century a `YY` year is in.
    enum TwoDigitYears: Hashable, Sendable {
        /// Always 20YY: bank CSV exports do not reach back into the 1900s.
        case twentyFirstCentury
        /// QIF: an apostrophe before the year is Quicken's mark of 20YY (`1/ 5'26`); after `/`
        /// (`D6/12/95`, `D03/08/13`) or any other separator the year is the one ending in YY
        /// from `currentYear` − 80 to `currentYear` + 19 (in 2026: 1946 to 2045), a window
        /// around today as Quicken's own pivot reads two-digit years. Reading `/YY` as 19YY
        /// put a file of 2013 in 1913; a window of 100 years gives every YY one reading.
        /// Where the pattern writes `/` or `'` before `YY`, either is read, since a file across
        /// 2000 has both (`12/31/99`, `1/ 1'00`).
        case quicken(currentYear: Int)

        /// The first year of the window: `currentYear` − 80.
        static func windowStart(currentYear: Int) -> Int { currentYear - 80 }
    }

    /// The outcome of reading one cell, so the caller can tell "wrong layout" from "no such day".
    enum Reading: Equatable {
        /// A valid calendar date as "YYYY-MM-DD".
        case date(String)
        case mismatch
        case notACalendarDate
    }

    public let pattern: String
    let tokens: [Token]
    /// With `TwoDigitYears.quicken`: the literal token before `YY` that ends in `/` or `'`, whose
    /// last byte is read as either and gives the century.
    private let centuryToken: Int?
    /// With `TwoDigitYears.quicken`: the first year of the window `YY` is read into unless an
    /// apostrophe marks it 20YY; nil reads `YY` as 20YY.
    private let windowStart: Int?

    public init(_ pattern: String) throws(BankStatementError) {
        try self.init(pattern, twoDigitYears: .twentyFirstCentury)
    }

    init(_ pattern: String, twoDigitYears: TwoDigitYears) throws(BankStatementError) {
        var tokens: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        var counts: [Character: Int] = [:]
        while index < scalars.count {
            let scalar = scalars[index]
            let letter = Character(scalar).uppercased()
            if ["Y", "M", "D"].contains(letter) {
                var run = 1
                while index + run < scalars.count, Character(scalars[index + run]).uppercased() == letter { run += 1 }
                let token: Token? = switch (letter, run) {
                case ("Y", 4): .year4
                case ("Y", 2): .year2
                case ("M", 1): .month(variable: true)
                case ("M", 2): .month(variable: false)
                case ("D", 1): .day(variable: true)
                case ("D", 2): .day(variable: false)
                default: nil
                }
                guard let token else {
                    throw BankStatementError(line: nil, "date format \"\(pattern)\": \"\(String(repeating: letter, count: run))\" is not a token (use YYYY, YY, MM, M, DD or D)")
                }
                counts[Character(letter), default: 0] += 1
                tokens.append(token)
                index += run
            } else if scalar.properties.isAlphabetic {
                throw BankStatementError(line: nil, "date format \"\(pattern)\": \"\(scalar)\" is not a token (use YYYY, YY, MM, M, DD or D and separators)")
            } else {
                let bytes = Array(String(scalar).utf8)
                if case .literal(let previous) = tokens.last {
                    tokens[tokens.count - 1] = .literal(previous + bytes)
                } else {
                    tokens.append(.literal(bytes))
                }
                index += 1
            }
        }
        guard counts["Y"] == 1, counts["M"] == 1, counts["D"] == 1 else {
            throw BankStatementError(line: nil, "date format \"\(pattern)\" must contain the year (YYYY or YY), the month (MM or M) and the day (DD or D) once each")
        }
        for (token, following) in zip(tokens, tokens.dropFirst()) where token.isVariable && following.isNumber {
            throw BankStatementError(line: nil, "date format \"\(pattern)\": a one-or-two-digit M or D must be followed by a separator, or the digits are ambiguous")
        }
        self.pattern = pattern
        self.tokens = tokens
        let yearIndex = tokens.firstIndex(of: .year2)
        let isQuicken: Bool
        if case .quicken(let currentYear) = twoDigitYears {
            isQuicken = true
            windowStart = TwoDigitYears.windowStart(currentYear: currentYear)
        } else {
            isQuicken = false
            windowStart = nil
        }
        centuryToken = if isQuicken, let yearIndex, yearIndex > 0, case .literal(let literal) = tokens[yearIndex - 1],
                          literal.last == Self.slash || literal.last == Self.apostrophe {
            yearIndex - 1
        } else {
            nil
        }
    }

    private static let slash = UInt8(ascii: "/")
    private static let apostrophe = UInt8(ascii: "'")

    public var description: String { pattern }

    /// The day `text` names, or nil when it does not follow the pattern or is not a real date.
    public func date(from text: String) -> LedgerDate? {
        if case .date(let iso) = read(text) { LedgerDate(iso) } else { nil }
    }

    func read(_ text: String) -> Reading {
        ImportText.withBytes(text) { read($0) }
    }

    private func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var position = 0
        var year = 0, month = 0, day = 0
        /// Quicken's apostrophe, read before the year: 20YY whatever the window says.
        var apostrophe = false

        func digits(_ minimum: Int, _ maximum: Int) -> Int? {
            var value = 0
            var count = 0
            while count < maximum, position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                value = value * 10 + Int(bytes[position] - 0x30)
                position += 1
                count += 1
            }
            return count >= minimum ? value : nil
        }

        for (index, token) in tokens.enumerated() {
            switch token {
            case .year4:
                guard let value = digits(4, 4) else { return .mismatch }
                year = value
            case .year2:
                guard let value = digits(2, 2) else { return .mismatch }
                if let windowStart, !apostrophe {
                    // The year ending in `value` in windowStart ..< windowStart + 100.
                    year = windowStart + (value - windowStart % 100 + 100) % 100
                } else {
                    year = 2000 + value
                }
            case .month(let variable):
                guard let value = digits(variable ? 1 : 2, 2) else { return .mismatch }
                month = value
            case .day(let variable):
                guard let value = digits(variable ? 1 : 2, 2) else { return .mismatch }
                day = value
            case .literal(let literal) where index == centuryToken:
                guard bytes.count - position >= literal.count,
                      UnsafeBufferPointer(rebasing: bytes[position..<(position + literal.count - 1)]).elementsEqual(literal.dropLast())
                else { return .mismatch }
                position += literal.count
                switch bytes[position - 1] {
                case Self.slash: apostrophe = false
                case Self.apostrophe: apostrophe = true
                default: return .mismatch
                }
            case .literal(let literal):
                guard bytes.count - position >= literal.count,
                      UnsafeBufferPointer(rebasing: bytes[position..<(position + literal.count)]).elementsEqual(literal)
                else { return .mismatch }
                position += literal.count
            }
        }
        if position < bytes.count, !Self.isTimeOfDay(UnsafeBufferPointer(rebasing: bytes[position...])) { return .mismatch }
        guard (1...9999).contains(year), (1...12).contains(month), (1...LedgerDate.daysIn(month: month, year: year)).contains(day) else {
            return .notACalendarDate
        }
        return .date(Self.iso(year, month, day))
    }

    /// A separator (space or `T`) then only characters a time of day or zone uses.
    private static func isTimeOfDay(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        guard rest.count > 1, rest[0] == UInt8(ascii: " ") || rest[0] == UInt8(ascii: "T"), rest[1] >= 0x30, rest[1] <= 0x39 else {
            return false
        }
        return rest.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "T") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "Z")
        }
    }

    /// "YYYY-MM-DD" for a year of 1…9999, built from digits directly (this runs once per row).
    static func iso(_ year: Int, _ month: Int, _ day: Int) -> String {
        let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
        let bytes: [UInt8] = [
            zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10), zero + UInt8(year % 10), dash,
            zero + UInt8(month / 10), zero + UInt8(month % 10), dash,
            zero + UInt8(day / 10), zero + UInt8(day % 10),
        ]
        return String(decoding: bytes, as: UTF8.self)
    }
}
