import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The checks and the arithmetic a trade's figures go through before they are stored
/// (docs/investments.md, "Numbers" and "Trades").
enum TradeRules {
    static func quantity(_ text: String, field: @autoclosure () -> FieldPath) throws -> Quantity {
        do {
            return try Quantity(parsing: text)
        } catch {
            throw LedgerError.invalid("\(field()): \(error.description)", field: field())
        }
    }

    /// A price per unit: an exact positive decimal in the rate range, refused in a price's words.
    static func price(_ text: String, field: @autoclosure () -> FieldPath) throws -> ExchangeRate {
        do {
            return try ExchangeRate(parsing: text)
        } catch {
            let reason = switch error {
            case .malformed: "\(InputEcho.quoted(text)) is not a price: write a plain positive decimal, e.g. 161.25"
            case .notPositive: "a price must be greater than zero, got \(InputEcho.escaped(text))"
            case .outOfRange: "\(InputEcho.escaped(text)) is outside the accepted range of prices (\(ExchangeRate.rangeDescription))"
            case .tooPrecise: "\(InputEcho.escaped(text)) has more than \(ExchangeRate.maximumDigits) significant digits"
            }
            throw LedgerError.invalid("\(field()): \(reason)", field: field())
        }
    }

    /// A fee: zero or more, in the trade's currency.
    static func fee(_ text: String?, currency: Currency, field: @autoclosure () -> FieldPath) throws -> Int64 {
        guard let text else { return 0 }
        let money = try InputRules.amount(text, currency: currency, field: field())
        guard money.minorUnits >= 0 else { throw LedgerError.invalid("\(field()) must not be negative, got \(text)", field: field()) }
        return money.minorUnits
    }

    /// A trade date: a day, not after today.
    static func date(_ text: String, today: String, field: @autoclosure () -> FieldPath) throws -> String {
        let day = try InputRules.date(text, field: field()).description
        guard day <= today else { throw LedgerError.invalid("\(field()) \(day) is in the future (today is \(today))", field: field()) }
        return day
    }

    /// "new:old", two integers from 1 to 1000 that differ.
    static func ratio(_ text: String) -> (new: Int, old: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let new = Int(parts[0]), let old = Int(parts[1]), (1...1_000).contains(new), (1...1_000).contains(old), new != old
        else { return nil }
        return (new, old)
    }

    /// quantity × price in minor units of `currency`, rounded half to even once; nil past the
    /// ledger's limit. A holding's value may be 0 (a few units of something nearly worthless).
    static func value(_ quantity: Quantity, _ price: ExchangeRate, currency: Currency) -> Int64? {
        var exact = quantity.decimal * price.value * Decimal(sign: .plus, exponent: currency.exponent, significand: 1)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .bankers)
        guard let minor = Int64(rounded.description), minor < Money.maximumMinorUnits else { return nil }
        return minor
    }

    /// A trade's amount: `value`, refused when it rounds to nothing or past the ledger's limit.
    static func amount(_ quantity: Quantity, _ price: ExchangeRate, currency: Currency, field: @autoclosure () -> FieldPath) throws -> Int64 {
        guard let minor = value(quantity, price, currency: currency) else {
            throw LedgerError.invalid("\(quantity) × \(price) \(currency.code) is too large to record", field: field())
        }
        guard minor > 0 else {
            throw LedgerError.invalid("\(quantity) × \(price) \(currency.code) rounds to 0 \(currency.code): too small to record", field: field())
        }
        return minor
    }

    /// `amount` (minor units of `from`) in `to` at `rate`, rounded half to even once.
    static func convert(_ amount: Int64, from: Currency, to: Currency, rate: ExchangeRate, field: @autoclosure () -> FieldPath) throws -> Int64 {
        do {
            return try CurrencyConverter.apply(rate, to: Money(minorUnits: amount, currency: from), target: to).minorUnits
        } catch {
            throw LedgerError.invalid("\(field()): \(error.description)", field: field())
        }
    }

    /// The rate from `from` to the account's base `to` for a trade on `day`: the one given, 1 for
    /// the same currency, else the active profile's rate in force at the end of that day, kept
    /// to 18 significant digits (a cross rate through a pivot may have more).
    static func rate(_ given: String?, from: Currency, to: Currency, day: String, db: Database, now: Date, field: FieldPath) throws -> ExchangeRate {
        if from == to {
            if let given, (try? ExchangeRate(parsing: given)) != .one {
                throw LedgerError.invalid("\(field) must be 1 (or left out): the trade is in \(from.code), the account's base currency", field: field)
            }
            return .one
        }
        if let given { return try RateHandlers.exchangeRate(given, field: field) }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: field), now: now)
        let moment = TransactionConversion.endOfDay(day, now: now)
        let converter = try lookup.converter(for: [from.code, to.code], base: try SettingsHandlers.baseCurrency(db), at: moment)
        do {
            let path = try converter.path(from: from.code, to: to.code, at: moment)
            var product = path.dropFirst().reduce(path.first?.rate ?? .one) { $0.then($1.rate) }.value
            var kept = Decimal()
            let scale = ExchangeRate.maximumDigits - 1 - Int(product.exponent) - (product.significand.description.count - 1)
            NSDecimalRound(&kept, &product, scale, .bankers)
            return try ExchangeRate(stored: kept.description)
        } catch {
            throw LedgerError.invalid("no rate from \(from.code) to \(to.code) on \(day) in profile '\(lookup.profile.name)': give \(field) (units of \(to.code) per \(from.code)) or add one with `ledgerly rates set \(from.code) \(to.code) RATE --date \(day)`", field: field)
        }
    }
}
