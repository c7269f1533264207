import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Fills in the base amounts that were left empty because no rate was known when the transaction
/// was recorded, as soon as a rate arrives in the active profile (run inside the `rates.batch` /
/// `rates.set` write).
///
/// Each is converted exactly as it would have been had the rate been there when it was recorded:
/// a transaction dated today with the newest rate, an earlier one with the rate in force at the
/// end of its day (a rate dated later does not fill it). It keeps that snapshot. A transfer's two
/// legs are filled together or not at all, so transfers still net to zero in the base currency.
///
/// It never fails the rates write: a transaction that cannot be converted (an amount too large
/// for the rate, say) is skipped and left waiting. The work per write is bounded (newest first);
/// what is left is filled by the next rates that arrive.
enum BaseAmountBackfill {
    static let maximumFilled = 1_000
    static let maximumScanned = 5_000

    @discardableResult
    static func run(_ context: inout WriteContext) throws -> Int {
        let db = context.db
        guard let base = try SettingsHandlers.baseCurrency(db), let baseCurrency = try? Currency(code: base) else { return 0 }
        let waiting = try db.cachedRows(
            sql: """
                SELECT t.id, t.wallet_amount_minor, t.date, t.counterparty_tx_id, w.currency AS wallet_currency
                FROM transactions t JOIN wallets w ON w.id = t.wallet_id
                WHERE t.base_amount_minor IS NULL ORDER BY t.id DESC LIMIT ?
                """,
            arguments: [maximumScanned])
        guard !waiting.isEmpty else { return 0 }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: "body.profileId"), now: context.date)
        let today = Timestamp.today(at: context.date)
        var converters: [String: CurrencyConverter] = [:]

        /// The signed base amount and snapshot of one waiting row; nil while it cannot be converted.
        func converted(_ row: Row) -> (Int64, RateSnapshot?)? {
            let walletMinor: Int64 = row["wallet_amount_minor"]
            let walletCurrency: String = row["wallet_currency"]
            if walletCurrency == base { return (walletMinor, nil) }
            let day: String = row["date"]
            let moment = day >= today ? nil : Timestamp.parse(day)
            do {
                let currency = try Currency(code: walletCurrency)
                let key = "\(walletCurrency) \(moment == nil ? "now" : day)"
                let converter = try converters[key] ?? lookup.converter(for: [walletCurrency, base], base: base, at: moment)
                converters[key] = converter
                let money = Money(minorUnits: Int64(walletMinor.magnitude), currency: currency)
                guard let (conversion, snapshot) = try lookup.convertIfKnown(money, to: baseCurrency, base: base, at: moment, field: "body.rates", using: converter) else { return nil }
                return (walletMinor.signum() * conversion.result.minorUnits, snapshot)
            } catch {
                return nil
            }
        }

        var fills: [(id: Int64, baseMinor: Int64, snapshot: RateSnapshot?)] = []
        var handled = Set<Int64>()
        for row in waiting where fills.count < maximumFilled {
            let id: Int64 = row["id"]
            guard handled.insert(id).inserted, let own = converted(row) else { continue }
            guard let partnerId: Int64 = row["counterparty_tx_id"] else {
                fills.append((id, own.0, own.1))
                continue
            }
            handled.insert(partnerId)
            guard let partner = try db.cachedRow(
                sql: "SELECT t.id, t.wallet_amount_minor, t.date, t.counterparty_tx_id, t.base_amount_minor, w.currency AS wallet_currency FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.id = ?",
                arguments: [partnerId]),
                let theirs = converted(partner)
            else { continue }
            fills.append((id, own.0, own.1))
            if (partner["base_amount_minor"] as Int64?) == nil { fills.append((partnerId, theirs.0, theirs.1)) }
        }
        try LedgerTotals.apply(db, ids: fills.map(\.id), sign: -1)
        for fill in fills {
            try db.execute(
                cached: "UPDATE transactions SET base_amount_minor = ?, base_conversion = ?, updated_at = ? WHERE id = ?",
                arguments: [fill.baseMinor, try TransactionConversion.json(fill.snapshot), context.now, fill.id])
        }
        try LedgerTotals.apply(db, ids: fills.map(\.id), sign: 1)
        for fill in fills {
            try context.record(.txUpdated, id: String(fill.id), data: try TransactionHandlers.fetch(db, id: fill.id))
        }
        return fills.count
    }
}
