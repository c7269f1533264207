import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// How a transaction's amount becomes its wallet amount and its base amount, with the rate kept
/// for each, so the transaction (and every report over it) never changes when rates change later.
///
/// - A transaction in another currency than its wallet's is converted with the active profile's
///   rate in force now, or with a one-off override rate (what the bank charged).
/// - The base amount is the wallet amount converted to the base currency. With no rate known
///   yet, the transaction is still recorded: its base amount is left empty rather than guessed.
struct TransactionConversion {
    /// Positive, in the wallet's currency.
    let walletMoney: Money
    let conversion: RateSnapshot?
    /// Positive, in the base currency; nil while no rate was known.
    let baseMinorUnits: Int64?
    let baseConversion: RateSnapshot?

    /// For a new transaction (or a transfer leg, where `amount` is already in the wallet's currency).
    /// `date` is the transaction's day: a transaction dated in the past converts with the rate in
    /// force at the end of that day, today's with the newest rate.
    /// `amountField`: the request's amount, named when an amount converted from it is too large.
    static func make(_ db: Database, amount: Money, wallet: WalletRecord, overrideRate: String?, date: LedgerDate, now clock: Date, cache: ConversionCache? = nil,
                     amountField: FieldPath = .body("amount")) throws -> TransactionConversion {
        let walletCurrency = try cache?.currency(wallet.currency, field: .body("walletId")) ?? InputRules.currency(wallet.currency, field: .body("walletId"))
        let base = try cache?.baseCurrency(db) ?? SettingsHandlers.baseCurrency(db)
        let day = date.description
        let endOfDay = cache.map { $0.endOfDay(day, now: clock) } ?? Self.endOfDay(day, now: clock)
        // One lookup (one profile read) serves both conversions, made only when one is needed.
        var sharedLookup = cache?.lookup
        func lookup(field: FieldPath) throws -> RateLookup {
            if let sharedLookup { return sharedLookup }
            let made = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: field), now: clock)
            sharedLookup = made
            cache?.lookup = made
            return made
        }
        func converter(_ lookup: RateLookup, _ currencies: [String]) throws -> CurrencyConverter? {
            try cache?.converter(lookup, currencies: currencies, base: base, at: endOfDay, day: day)
        }
        var walletMoney = amount
        var conversion: RateSnapshot?
        if amount.currency != walletCurrency {
            if let overrideRate {
                let rate = try RateHandlers.exchangeRate(overrideRate, field: .body("rate"))
                walletMoney = try applying(rate, to: amount, in: walletCurrency, field: amountField)
                conversion = RateSnapshot(base: amount.currency.code, quote: walletCurrency.code, rate: rate.decimalString, profileId: nil, profileName: nil,
                                          source: "override", asOf: Timestamp.string(from: clock), override: true, stale: false)
            } else {
                let rates = try lookup(field: .body("currency"))
                let (converted, snapshot) = try rates.convert(amount, to: walletCurrency, base: base, at: endOfDay, field: .body("currency"), amountField: amountField,
                                                              using: try converter(rates, [amount.currency.code, walletCurrency.code]), cache: cache)
                walletMoney = converted.result
                conversion = snapshot
            }
            guard walletMoney.minorUnits > 0 else {
                // With a one-off rate, the rate is what the user can fix; else the amount.
                let field = overrideRate == nil ? amountField : FieldPath.body("rate")
                throw LedgerError.invalid("\(amount) converts to \(walletMoney) in wallet '\(wallet.name)'\(overrideRate.map { " at the rate \($0)" } ?? ""): too small to record",
                                           field: field)
            }
        } else if overrideRate != nil {
            throw LedgerError.invalid("body.rate is for a transaction in another currency than its wallet's (\(walletCurrency.code))", field: .body("rate"))
        }

        guard let base, let baseCurrency = try? cache?.currency(base, field: .body("walletId")) ?? Currency(code: base) else {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: nil, baseConversion: nil)
        }
        if baseCurrency == walletCurrency {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: walletMoney.minorUnits, baseConversion: nil)
        }
        // Only a missing rate leaves the base amount empty; any other failure is an error.
        let rates = try lookup(field: .body("walletId"))
        guard let (converted, snapshot) = try rates.convertIfKnown(walletMoney, to: baseCurrency, base: base, at: endOfDay, field: .body("walletId"), amountField: amountField,
                                                                    using: try converter(rates, [walletCurrency.code, base]), cache: cache) else {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: nil, baseConversion: nil)
        }
        return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: converted.result.minorUnits, baseConversion: snapshot)
    }

    /// The moment whose rates convert a transaction of `day`: nil (the newest rates) for today in
    /// the user's time zone or later, else the end of that day (UTC).
    static func endOfDay(_ day: String, now: Date) -> Date? {
        day >= Timestamp.today(at: now) ? nil : Timestamp.parse(day)
    }

    /// For a restored export: the amounts and rates the transaction had, checked against the
    /// currencies they must be in, never converted again.
    static func restored(_ kept: KeptAmounts, amount: Money, wallet: WalletRecord, db: Database, cache: ConversionCache? = nil) throws -> TransactionConversion {
        let walletCurrency = try InputRules.currency(wallet.currency, field: .body("walletId"))
        var walletMoney = amount
        if amount.currency != walletCurrency {
            guard let walletAmount = kept.walletAmount, kept.conversion != nil else {
                throw LedgerError.invalid("a \(amount.currency.code) transaction in a \(walletCurrency.code) wallet needs kept.walletAmount and kept.conversion", field: .root("kept").member("walletAmount"))
            }
            walletMoney = try InputRules.positiveAmount(walletAmount, currency: walletCurrency, field: .root("kept").member("walletAmount"))
        }
        return TransactionConversion(walletMoney: walletMoney, conversion: amount.currency == walletCurrency ? nil : kept.conversion,
                                     baseMinorUnits: try keptBase(kept.baseAmount, db: db, field: .root("kept").member("baseAmount"), cache: cache), baseConversion: kept.baseConversion)
    }

    /// A kept base amount in minor units of the base currency: not negative (zero happens).
    /// `cache`: a batch's, which reads the base currency once.
    static func keptBase(_ amount: String?, db: Database, field: FieldPath, cache: ConversionCache? = nil) throws -> Int64? {
        guard let amount else { return nil }
        guard let base = try cache?.baseCurrency(db) ?? SettingsHandlers.baseCurrency(db) else {
            throw LedgerError.invalid("\(field) needs a base currency: finish `ledgerly setup` first", field: field)
        }
        let money = try InputRules.amount(amount, currency: try InputRules.currency(base, field: field), field: field)
        guard money.minorUnits >= 0 else { throw LedgerError.invalid("\(field) must not be negative, got \(InputEcho.escaped(amount))", field: field) }
        return money.minorUnits
    }

    /// For an edited amount: the kept rates applied to the new amount, never today's rates.
    /// `conversion` must be there when the transaction's currency differs from its wallet's.
    static func reapply(amount: Money, walletCurrency: Currency, conversion: RateSnapshot?, baseConversion: RateSnapshot?, base: String?) throws -> TransactionConversion {
        var walletMoney = amount
        if amount.currency != walletCurrency {
            guard let conversion else {
                throw LedgerError.broken("the rate this \(amount.currency.code) transaction was converted with cannot be read; its amount cannot change")
            }
            walletMoney = try applying(conversion, to: amount, in: walletCurrency)
            guard walletMoney.minorUnits > 0 else {
                throw LedgerError.invalid("\(amount) converts to \(walletMoney) at the kept rate: too small to record", field: .body("amount"))
            }
        }
        var baseMinorUnits: Int64?
        if let baseConversion, let baseCurrency = try? Currency(code: baseConversion.quote) {
            baseMinorUnits = try applying(baseConversion, to: walletMoney, in: baseCurrency).minorUnits
        } else if base == walletCurrency.code {
            baseMinorUnits = walletMoney.minorUnits
        }
        return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: baseMinorUnits, baseConversion: baseConversion)
    }

    /// A kept snapshot applied to an amount: through its legs when it has them (exact, one
    /// rounding), else its single rate (a one-off override).
    private static func applying(_ snapshot: RateSnapshot, to amount: Money, in target: Currency) throws -> Money {
        do {
            if let legs = snapshot.legs, !legs.isEmpty {
                return try CurrencyConverter.apply(legs: try legs.map { (try ExchangeRate(stored: $0.rate), $0.inverted) }, to: amount, target: target)
            }
            return try CurrencyConverter.apply(try ExchangeRate(stored: snapshot.rate), to: amount, target: target)
        } catch let error as ConversionError {
            throw LedgerError.invalid(error.description, field: .body("amount"))
        } catch {
            throw LedgerError.broken("the kept rate \(snapshot.rate) of this transaction cannot be read")
        }
    }

    private static func applying(_ rate: ExchangeRate, to amount: Money, in target: Currency, field: FieldPath) throws -> Money {
        do { return try CurrencyConverter.apply(rate, to: amount, target: target) } catch {
            throw LedgerError.invalid("\(field): \(error.description)", field: field)
        }
    }

    /// The same conversion with another base amount (a transfer leg takes its partner's).
    func withBase(minorUnits: Int64?, snapshot: RateSnapshot?) -> TransactionConversion {
        TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: minorUnits, baseConversion: minorUnits == nil ? nil : snapshot)
    }

    /// The snapshot as stored: `MessageCoding.encode`'s bytes, written by hand (D359).
    static func json(_ snapshot: RateSnapshot?) -> String? {
        snapshot.map(TransactionExportCoding.json)
    }

    static func snapshot(_ text: String?) -> RateSnapshot? {
        text.flatMap { try? MessageCoding.decoder().decode(RateSnapshot.self, from: Data($0.utf8)) }
    }
}
