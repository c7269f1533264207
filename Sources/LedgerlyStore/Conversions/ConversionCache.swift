import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// What the conversions of one import batch share: the base currency, the active profile's
/// lookup, one converter per currency pair and day, and one conversion per pair and moment.
///
/// Why: building a converter reads every pair among the currencies and pivots (a dozen indexed
/// queries); a batch of thousands of transactions over a few days needs only a handful of them.
/// Lives for one SQL transaction, so it can never serve rates that changed since.
final class ConversionCache {
    private var base: String??
    var lookup: RateLookup?
    private var converters: [ConverterKey: CurrencyConverter] = [:]
    /// The same converters by every currency they read (`RateLookup.involved`): the pairs and
    /// days of a batch differ more than what their converters read, which the pivots make the
    /// same for most of them (D368).
    private var convertersByInvolved: [ConverterKey: CurrencyConverter] = [:]
    /// Snapshots as stored: a batch's transactions of one day share a handful of them, and
    /// encoding JSON is most of what storing one costs.
    private var encoded = RecentFirstMemo<RateSnapshot, String?>()

    private var moments = RecentFirstMemo<String, Date?>()
    private var currencies = RecentFirstMemo<String, Currency>()
    /// nil: no rate connects the pair at that moment (rates do not change within the batch).
    private var conversions = RecentFirstMemo<PairAtMoment, (conversion: Conversion, snapshot: RateSnapshot)?>()

    /// Keys of plain values: built for every transaction, where text keys were formatted each time.
    struct PairAtMoment: Hashable {
        let from: String
        let to: String
        /// nil: the newest rates.
        let moment: Date?
    }

    private struct ConverterKey: Hashable {
        /// Sorted.
        let currencies: [String]
        /// nil: the newest rates.
        let day: String?
    }

    /// The first conversion of the pair at the moment in the batch, with its snapshot, made by
    /// `make` (nil when no rate connects the pair): its legs serve any other amount of the pair
    /// (`Conversion.applied(to:)`). A conversion that throws is not kept.
    func conversion(_ key: PairAtMoment, _ make: () throws -> (conversion: Conversion, snapshot: RateSnapshot)?) rethrows -> (conversion: Conversion, snapshot: RateSnapshot)? {
        try conversions.value(for: key) { _ in try make() }
    }

    /// `TransactionConversion.endOfDay`, worked out once per day of the batch.
    func endOfDay(_ day: String, now: Date) -> Date? {
        moments.value(for: day) { TransactionConversion.endOfDay($0, now: now) }
    }

    /// A wallet's or the base currency's code read once per batch (`InputRules.currency`, which
    /// names `field` when the code is not one).
    func currency(_ code: String, field: @autoclosure () -> FieldPath) throws -> Currency {
        try currencies.value(for: code) { try InputRules.currency($0, field: field()) }
    }

    func json(_ snapshot: RateSnapshot?) -> String? {
        guard let snapshot else { return nil }
        return encoded.value(for: snapshot, TransactionConversion.json)
    }

    func baseCurrency(_ db: Database) throws -> String? {
        if let base { return base }
        let read = try SettingsHandlers.baseCurrency(db)
        base = .some(read)
        return read
    }

    /// `moment` nil (today: the newest rates) is one entry; a past day is another per day.
    func converter(_ lookup: RateLookup, currencies: [String], base: String?, at moment: Date?, day: String) throws -> CurrencyConverter {
        let sorted = currencies.count == 2 && currencies[0] <= currencies[1] ? currencies : currencies.sorted()
        let key = ConverterKey(currencies: sorted, day: moment == nil ? nil : day)
        return try Self.remembered(key, in: &converters) {
            let involved = ConverterKey(currencies: RateLookup.involved(currencies, base: base), day: key.day)
            return try Self.remembered(involved, in: &convertersByInvolved) { try lookup.converter(for: currencies, base: base, at: moment) }
        }
    }

    /// The value kept under `key`, made and kept the first time it is asked for.
    private static func remembered<Key: Hashable, Value>(_ key: Key, in store: inout [Key: Value], _ make: () throws -> Value) rethrows -> Value {
        if let known = store[key] { return known }
        let made = try make()
        store[key] = made
        return made
    }
}
