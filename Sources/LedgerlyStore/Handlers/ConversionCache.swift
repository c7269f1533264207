import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// What the conversions of one import batch share: the base currency, the active profile's
/// lookup, and one converter per currency pair and day.
///
/// Why: building a converter reads every pair among the currencies and pivots (a dozen indexed
/// queries); a batch of thousands of transactions over a few days needs only a handful of them.
/// Lives for one SQL transaction, so it can never serve rates that changed since.
final class ConversionCache {
    private var base: String??
    var lookup: RateLookup?
    private var converters: [String: CurrencyConverter] = [:]
    /// Snapshots as stored: a batch's transactions of one day share a handful of them, and
    /// encoding JSON is most of what storing one costs.
    private var encoded: [RateSnapshot: String] = [:]

    private var moments: [String: Date?] = [:]
    private var snapshots: [String: RateSnapshot] = [:]

    func snapshot(_ key: String, _ make: () -> RateSnapshot) -> RateSnapshot {
        if let known = snapshots[key] { return known }
        let made = make()
        snapshots[key] = made
        return made
    }


    /// `TransactionConversion.endOfDay`, worked out once per day of the batch.
    func endOfDay(_ day: String, now: Date) -> Date?? {
        if let known = moments[day] { return known }
        let made = TransactionConversion.endOfDay(day, now: now)
        moments[day] = made
        return made
    }

    func json(_ snapshot: RateSnapshot?) throws -> String? {
        guard let snapshot else { return nil }
        if let known = encoded[snapshot] { return known }
        let made = try TransactionConversion.json(snapshot)
        encoded[snapshot] = made
        return made
    }

    func baseCurrency(_ db: Database) throws -> String? {
        if let base { return base }
        let read = try SettingsHandlers.baseCurrency(db)
        base = .some(read)
        return read
    }

    /// `moment` nil (today: the newest rates) is one entry; a past day is another per day.
    func converter(_ lookup: RateLookup, currencies: [String], base: String?, at moment: Date?, day: String) throws -> CurrencyConverter {
        let key = currencies.sorted().joined(separator: ",") + "@" + (moment == nil ? "now" : day)
        if let known = converters[key] { return known }
        let made = try lookup.converter(for: currencies, base: base, at: moment)
        converters[key] = made
        return made
    }
}
