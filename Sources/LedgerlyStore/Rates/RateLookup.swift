import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Reads a profile's rates for one conversion: for every pair among the currencies involved and
/// the pivots, the rate in force at the moment (a custom override first, then the newest at or
/// before it), and builds a `CurrencyConverter` over just those. The engine does the rest.
struct RateLookup {
    let db: Database
    let profile: RateProfileRecord
    let now: Date
    let policy: StalenessPolicy

    init(db: Database, profile: RateProfileRecord, now: Date) throws {
        self.db = db
        self.profile = profile
        self.now = now
        self.policy = try SettingsHandlers.stalenessPolicy(db)
    }

    /// Currencies tried as intermediates: the base currency, then the ECB's and the usual
    /// fiat pivots, so EUR-based and USD-based feeds both connect.
    static func pivots(base: String?) -> [String] { [base, "EUR", "USD"].compactMap { $0 } }

    /// Every currency a converter for `currencies` reads rates among, sorted: the converter
    /// depends on `currencies` only through this (and on the moment and profile).
    static func involved(_ currencies: [String], base: String?) -> [String] {
        Set(currencies + pivots(base: base)).sorted()
    }

    func converter(for currencies: [String], base: String?, at moment: Date?) throws -> CurrencyConverter {
        let pivots = Self.pivots(base: base)
        let involved = Self.involved(currencies, base: base)
        let cutoff = Timestamp.string(from: moment ?? now)
        var quotes: [RateQuote] = []
        var covered = Set<CurrencyPair>()
        for from in involved {
            for to in involved where to != from {
                guard let row = try RateRow.inForce(db, profileId: profile.id, base: from, quote: to, at: cutoff),
                    let quote = row.quoteForEngine
                else { continue }
                quotes.append(quote)
                covered.insert(CurrencyPair(from, to))
            }
        }
        // A parallel feed publishes a few pairs; for a pair it lacks (in either direction) the
        // user's manual rates stand in. The snapshot's `source` names each leg's source, so a
        // conversion that used a manual rate says so (D83).
        if profile.type == .parallel, let manual = try? RateHandlers.activeProfile(db, id: nil, mode: .manual, field: .wholeBody) {
            for from in involved {
                for to in involved where to != from && !covered.contains(CurrencyPair(from, to)) && !covered.contains(CurrencyPair(to, from)) {
                    guard let row = try RateRow.inForce(db, profileId: manual.id, base: from, quote: to, at: cutoff),
                        let quote = row.quoteForEngine
                    else { continue }
                    quotes.append(quote)
                }
            }
        }
        return CurrencyConverter(book: RateBook(quotes: quotes), pivots: pivots)
    }

    /// Converts and describes the rate used as a snapshot to keep; a missing rate is an error.
    /// `field`: the input that needed the rate (named when none is known); `amountField`: the
    /// amount, named when its result would be too large to record.
    func convert(_ money: Money, to target: Currency, base: String?, at moment: Date?, field: FieldPath, amountField: FieldPath = .body("amount"),
                 using prepared: @autoclosure () throws -> CurrencyConverter? = nil, cache: ConversionCache? = nil) throws -> (Conversion, RateSnapshot) {
        guard let converted = try convertIfKnown(money, to: target, base: base, at: moment, field: field, amountField: amountField, using: try prepared(), cache: cache) else {
            throw LedgerError.invalid("\(ConversionError.missingRate(from: money.currency.code, to: target.code).description) (profile '\(profile.name)')", field: field)
        }
        return converted
    }

    /// Like `convert`, but nil when no rate connects the currencies (and only then): for a base
    /// amount that may wait for a rate. The rates are read once.
    /// `converter`: one already built for these currencies and moment (the backfill reuses one
    /// per wallet currency and day instead of reading the same rates for every transaction);
    /// asked for only when `cache` does not know the pair at this moment.
    /// `cache`: a batch's shared cache, which keeps one conversion and its snapshot per pair and
    /// moment: the legs and the snapshot do not depend on the amount, and finding and describing
    /// them cost several times the arithmetic (D383).
    func convertIfKnown(_ money: Money, to target: Currency, base: String?, at moment: Date?, field: FieldPath, amountField: FieldPath = .body("amount"),
                        using prepared: @autoclosure () throws -> CurrencyConverter? = nil, cache: ConversionCache? = nil) throws -> (Conversion, RateSnapshot)? {
        func converted() throws -> (conversion: Conversion, snapshot: RateSnapshot)? {
            let converter = try prepared() ?? converter(for: [money.currency.code, target.code], base: base, at: moment)
            let conversion: Conversion
            do throws(ConversionError) {
                conversion = try converter.convert(money, to: target, at: moment)
            } catch {
                switch error {
                case .missingRate: return nil
                case .resultTooLarge: throw refusal(error, amountField: amountField)
                }
            }
            return (conversion, snapshot(of: conversion, from: money.currency, to: target, at: moment))
        }
        guard let cache else { return try converted() }
        guard let kept = try cache.conversion(ConversionCache.PairAtMoment(from: money.currency.code, to: target.code, moment: moment), converted) else { return nil }
        do throws(ConversionError) {
            return (try kept.conversion.applied(to: money), kept.snapshot)
        } catch {
            throw refusal(error, amountField: amountField)
        }
    }

    /// A conversion that cannot be recorded, named by the amount it came from.
    private func refusal(_ error: ConversionError, amountField: FieldPath) -> LedgerError {
        LedgerError.invalid("\(amountField): \(error.description) (profile '\(profile.name)')", field: amountField)
    }

    /// The rate a conversion used, as kept with a transaction.
    func snapshot(of conversion: Conversion, from source: Currency, to target: Currency, at moment: Date?) -> RateSnapshot {
        // A rate asked for a past moment is the right rate for it, not a stale one.
        let stale = moment == nil && conversion.legs.contains { policy.isStale($0.quote, now: now) }
        return RateSnapshot(
            base: source.code, quote: target.code, rate: conversion.rate.decimalString,
            profileId: profile.id, profileName: profile.name,
            source: conversion.legs.isEmpty ? "identity" : conversion.legs.map(\.quote.source).joined(separator: "+"),
            asOf: Timestamp.string(from: conversion.asOf ?? now), override: false, stale: stale,
            legs: conversion.legs.map { RateSnapshotLeg(base: $0.quote.pair.base, quote: $0.quote.pair.quote, rate: $0.quote.rate.decimalString, inverted: $0.inverted) })
    }

    /// "rate 3 h old" when a leg was stale, for replies and CLI output.
    func warning(for conversion: Conversion) -> String? {
        guard let oldest = conversion.legs.filter({ policy.isStale($0.quote, now: now) }).map(\.quote).min(by: { $0.asOf < $1.asOf }) else { return nil }
        return "rate \(StalenessPolicy.describe(policy.age(of: oldest, now: now))) old"
    }
}
