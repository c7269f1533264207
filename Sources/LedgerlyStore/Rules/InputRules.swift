import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// The checks every handler applies to user input, each failing with a `validation_failed`
/// error that names the field, so messages read the same everywhere.
enum InputRules {
    static let maximumNameLength = 100
    static let maximumNotesLength = 10_000
    /// The largest amount accepted, in minor units (10 trillion EUR, a quadrillion JPY). Far
    /// beyond any household, and small enough that sums of many amounts stay inside Int64.
    static let maximumMinorUnits = Money.maximumMinorUnits
    static let sortOrderRange = -1_000_000...1_000_000

    static func name(_ raw: String, field: @autoclosure () -> FieldPath) throws(LedgerError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalid("\(field()) must not be empty", field: field()) }
        guard trimmed.count <= maximumNameLength else { throw .invalid("\(field()) is longer than \(maximumNameLength) characters", field: field()) }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalid("\(field()) must not contain control characters", field: field())
        }
        return trimmed
    }

    static func optionalText(_ raw: String?, field: @autoclosure () -> FieldPath, limit: Int = maximumNotesLength) throws(LedgerError) -> String? {
        guard let raw else { return nil }
        guard raw.count <= limit else { throw .invalid("\(field()) is longer than \(limit) characters", field: field()) }
        return raw.isEmpty ? nil : raw
    }

    static func currency(_ code: String, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Currency {
        do { return try Currency(code: code) } catch { throw .invalid(error.description, field: field()) }
    }

    /// An amount that may be negative or zero (a starting balance, say).
    static func amount(_ text: String, currency: Currency, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Money {
        let money: Money
        do { money = try Money(parsing: text, currency: currency) } catch { throw .invalid(error.description, field: field()) }
        guard money.minorUnits.magnitude < maximumMinorUnits.magnitude else {
            let limit = Money.format(minorUnits: maximumMinorUnits, exponent: currency.exponent)
            throw .invalid("\(field()) \(InputEcho.escaped(text)) is too large: amounts must be below \(limit) \(currency.code)", field: field())
        }
        return money
    }

    static func sortOrder(_ value: Int?, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Int? {
        guard let value else { return nil }
        guard sortOrderRange.contains(value) else {
            throw .invalid("\(field()) must be between \(sortOrderRange.lowerBound) and \(sortOrderRange.upperBound)", field: field())
        }
        return value
    }

    /// A strictly positive amount (transactions carry their direction in `kind`).
    static func positiveAmount(_ text: String, currency: Currency, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Money {
        let money = try amount(text, currency: currency, field: field())
        guard money.minorUnits > 0 else {
            throw .invalid("\(field()) must be greater than zero (use kind income/expense for the direction), got \(InputEcho.escaped(text))", field: field())
        }
        return money
    }

    /// An id given by the client (a restore keeps the export's, a read names what it reads): 0 or
    /// below is `validation_failed` naming the field (PROTOCOL.md §8), never a lookup that finds
    /// nothing or a filter that matches nothing.
    static func positiveId(_ id: Int64, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Int64 {
        guard id > 0 else { throw .invalid("\(field()) must be a positive id, got \(id)", field: field()) }
        return id
    }

    /// An optional id, such as a read's `accountId` filter: absent is no filter; given, as `positiveId`.
    static func optionalId(_ id: Int64?, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Int64? {
        guard let id else { return nil }
        return try positiveId(id, field: field())
    }

    /// A page cursor (`afterId`: a previous page's `nextAfterId`): absent or 0 is from the first
    /// id on; below 0 is `validation_failed` naming the field, not read as "from the start".
    static func pageCursor(_ afterId: Int64?, field: @autoclosure () -> FieldPath) throws(LedgerError) -> Int64? {
        guard let afterId else { return nil }
        guard afterId >= 0 else { throw .invalid("\(field()) must be 0 or more (a previous page's nextAfterId), got \(afterId)", field: field()) }
        return afterId
    }

    /// A timestamp given by the client (`YYYY-MM-DDTHH:MM:SS(.fff)(Z|±HH:MM)`, read strictly:
    /// `Timestamp`), in the form the store writes (times are compared as text).
    static func timestamp(_ text: String, field: @autoclosure () -> FieldPath) throws(LedgerError) -> String {
        Timestamp.string(from: try instant(text, field: field(), date: nil))
    }

    /// A moment given by the client: a strict timestamp, or a date alone standing for the start or
    /// the end of that day (UTC), as the field defines. Every time in a request is read here.
    static func moment(_ text: String, field: @autoclosure () -> FieldPath, date dayMeans: Timestamp.DayMeans) throws(LedgerError) -> Date {
        try instant(text, field: field(), date: dayMeans)
    }

    private static func instant(_ text: String, field: @autoclosure () -> FieldPath, date dayMeans: Timestamp.DayMeans?) throws(LedgerError) -> Date {
        do { return try Timestamp.read(text, date: dayMeans) } catch {
            let what = dayMeans == nil ? "an ISO 8601 time" : "a date (YYYY-MM-DD) or an ISO 8601 time"
            throw .invalid("\(field()) must be \(what), got \(InputEcho.quoted(text)): \(error.description)", field: field())
        }
    }

    static func date(_ text: String, field: @autoclosure () -> FieldPath) throws(LedgerError) -> LedgerDate {
        guard let date = LedgerDate(text) else { throw .invalid("\(field()) must be a date as YYYY-MM-DD, got \(InputEcho.quoted(text))", field: field()) }
        return date
    }

    static func color(_ text: String?, field: @autoclosure () -> FieldPath) throws(LedgerError) -> String? {
        guard let text else { return nil }
        let hex = text.dropFirst()
        // ASCII only: `Character.isHexDigit` is also true of the fullwidth `Ａ`–`Ｆ` and `０`–`９`,
        // which would be stored as typed (uppercasing leaves them fullwidth).
        guard text.first == "#", hex.count == 6, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            throw .invalid("\(field()) must be a color as #RRGGBB, got \(InputEcho.quoted(text))", field: field())
        }
        return text.uppercased()
    }

    /// Formats stored minor units of a stored (hence valid) currency code.
    static func format(_ minorUnits: Int64, _ currencyCode: String) -> String {
        Money.format(minorUnits: minorUnits, exponent: CurrencyCatalog.exponent(for: currencyCode))
    }
}
