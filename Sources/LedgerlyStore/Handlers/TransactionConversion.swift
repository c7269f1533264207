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
    static func make(_ db: Database, amount: Money, wallet: WalletRecord, overrideRate: String?, date: LedgerDate, now: String) throws -> TransactionConversion {
        let walletCurrency = try InputRules.currency(wallet.currency, field: "body.walletId")
        let base = try db.cachedValue(String.self, sql: "SELECT base_currency FROM settings WHERE id = 1")
        let clock = Date()
        let endOfDay = Timestamp.parse(date.description).flatMap { $0 < clock ? $0 : nil }
        var walletMoney = amount
        var conversion: RateSnapshot?
        if amount.currency != walletCurrency {
            if let overrideRate {
                let rate = try RateHandlers.exchangeRate(overrideRate, field: "body.rate")
                walletMoney = try applying(rate, to: amount, in: walletCurrency)
                conversion = RateSnapshot(base: amount.currency.code, quote: walletCurrency.code, rate: rate.decimalString, profileId: nil, profileName: nil,
                                          source: "override", asOf: now, override: true, stale: false)
            } else {
                let profile = try RateHandlers.activeProfile(db, id: nil, mode: nil, field: "body.currency")
                let (converted, snapshot) = try RateLookup(db: db, profile: profile, now: clock)
                    .convert(amount, to: walletCurrency, base: base, at: endOfDay, field: "body.currency")
                walletMoney = converted.result
                conversion = snapshot
            }
            guard walletMoney.minorUnits > 0 else {
                throw ErrorBody.validation("\(amount) converts to \(walletMoney) in wallet '\(wallet.name)': too small to record", field: "body.amount")
            }
        } else if overrideRate != nil {
            throw ErrorBody.validation("body.rate is for a transaction in another currency than its wallet's (\(walletCurrency.code))", field: "body.rate")
        }

        guard let base, let baseCurrency = try? Currency(code: base) else {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: nil, baseConversion: nil)
        }
        if baseCurrency == walletCurrency {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: walletMoney.minorUnits, baseConversion: nil)
        }
        let profile = try RateHandlers.activeProfile(db, id: nil, mode: nil, field: "body.walletId")
        guard let (converted, snapshot) = try? RateLookup(db: db, profile: profile, now: clock)
            .convert(walletMoney, to: baseCurrency, base: base, at: endOfDay, field: "body.walletId")
        else {
            return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: nil, baseConversion: nil)
        }
        return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: converted.result.minorUnits, baseConversion: snapshot)
    }

    /// For an edited amount: the kept rates applied to the new amount, never today's rates.
    static func reapply(amount: Money, walletCurrency: Currency, conversion: RateSnapshot?, baseConversion: RateSnapshot?, base: String?) throws -> TransactionConversion {
        var walletMoney = amount
        if let conversion {
            walletMoney = try applying(try keptRate(conversion), to: amount, in: walletCurrency)
        }
        var baseMinorUnits: Int64?
        if let baseConversion, let baseCurrency = try? Currency(code: baseConversion.quote) {
            baseMinorUnits = try applying(try keptRate(baseConversion), to: walletMoney, in: baseCurrency).minorUnits
        } else if base == walletCurrency.code {
            baseMinorUnits = walletMoney.minorUnits
        }
        return TransactionConversion(walletMoney: walletMoney, conversion: conversion, baseMinorUnits: baseMinorUnits, baseConversion: baseConversion)
    }

    /// A snapshot's rate, as stored (a cross rate may have more digits than a typed one).
    private static func keptRate(_ snapshot: RateSnapshot) throws -> ExchangeRate {
        do { return try ExchangeRate(stored: snapshot.rate) } catch {
            throw ErrorBody(code: .internal, message: "the kept rate \(snapshot.rate) of this transaction cannot be read")
        }
    }

    private static func applying(_ rate: ExchangeRate, to amount: Money, in target: Currency) throws -> Money {
        do { return try CurrencyConverter.apply(rate, to: amount, target: target) } catch {
            throw ErrorBody.validation(error.description, field: "body.amount")
        }
    }

    static func json(_ snapshot: RateSnapshot?) throws -> String? {
        try snapshot.map { String(decoding: try MessageCoding.encode($0), as: UTF8.self) }
    }

    static func snapshot(_ text: String?) -> RateSnapshot? {
        text.flatMap { try? MessageCoding.decoder().decode(RateSnapshot.self, from: Data($0.utf8)) }
    }
}
