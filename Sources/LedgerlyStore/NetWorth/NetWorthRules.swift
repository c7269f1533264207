import LedgerlyCore
import LedgerlyProtocol

/// The input checks shared by manual assets and liabilities.
enum NetWorthRules {
    /// A value or balance: zero or more, exact in the currency's minor units.
    static func value(_ text: String, currency: Currency, field: @autoclosure () -> FieldPath) throws -> Int64 {
        let money = try InputRules.amount(text, currency: currency, field: field())
        guard money.minorUnits >= 0 else {
            throw LedgerError.invalid("\(field()) must be zero or more, got \(InputEcho.escaped(text))", field: field())
        }
        return money.minorUnits
    }

    /// A day for a valuation or an entry: YYYY-MM-DD, today when absent, never in the future
    /// (a value is known only once it is).
    static func pastDay(_ text: String?, today: String, field: @autoclosure () -> FieldPath) throws -> String {
        guard let text else { return today }
        let day = try InputRules.date(text, field: field()).description
        guard day <= today else { throw LedgerError.invalid("\(field()) \(day) is in the future (today is \(today))", field: field()) }
        return day
    }
}
