import LedgerlyCore

/// An amount of a statement read into minor units, with the one wording every format uses when
/// it is refused (`amount "12,3x" in column "Betrag" is not a number …`, `amount "1O.00" in
/// <TRNAMT> is not a number …`).
enum BankStatementAmount {
    /// - Parameters:
    ///   - role: what the amount is ("amount", "debit", "split amount").
    ///   - place: where it was read, for the message ("in column \"Betrag\"", "in <TRNAMT>").
    static func minorUnits(
        _ text: String, format: BankCSVAmountFormat, currency: Currency, role: String, place: String, line: Int?
    ) throws(BankStatementError) -> Int64 {
        let shown = text.trimmingWhitespace()
        switch format.parse(text, currency: currency) {
        case .success(let money):
            return money.minorUnits
        case .failure(.empty):
            throw BankStatementError(line: line, "the \(role) \(place) is empty")
        case .failure(.notANumber):
            throw BankStatementError(line: line, "\(role) \"\(shown)\" \(place) is not a number (decimal separator \"\(format.decimalSeparator)\"\(format.thousandsDescription))")
        case .failure(.currencySymbol):
            throw BankStatementError(line: line, "\(role) \"\(shown)\" \(place) has a currency symbol or code this reader does not know: write the amount without it, or with \(currency.code)")
        case .failure(.otherCurrency(let mark)):
            throw BankStatementError(line: line, "\(role) \"\(shown)\" \(place) is marked \(mark), which is not \(currency.code), the row's currency (from a currency column or the wallet): nothing is converted by guess")
        case .failure(.tooManyDecimals(let allowed)):
            throw BankStatementError(line: line, "\(role) \"\(shown)\" \(place) has more decimals than \(currency.code) allows (\(allowed))")
        case .failure(.outOfRange):
            throw BankStatementError(line: line, "\(role) \"\(shown)\" \(place) is too large to store")
        }
    }
}

extension BankCSVAmountFormat {
    var thousandsDescription: String {
        guard let thousandsSeparator else { return ", no thousands separator" }
        return ", thousands separator \"\(thousandsSeparator)\""
    }
}

extension Int64 {
    /// Amounts come from at most 18 digits plus decimals, so never Int64.min; clamp anyway.
    var magnitudeAsInt64: Int64 { Int64(clamping: magnitude) }
}
