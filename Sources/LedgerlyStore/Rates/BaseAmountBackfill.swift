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
/// Every waiting transaction that some rate now covers is filled, whatever its age or how many
/// wait (D79): the waiting rows are first grouped by wallet currency and day (an index scan, no
/// row is read), each group is checked once against the rates, and only the rows of covered
/// groups are read, in pages of `pageSize`, until none is left. It never fails the rates write: a
/// transaction that cannot be converted (an amount too large for the rate, say) is skipped and
/// left waiting.
enum BaseAmountBackfill {
    /// Rows read and written per step, so memory stays bounded however many wait.
    static let pageSize = 1_000

    private struct Group: Hashable {
        let currency: String
        let day: String
    }

    @discardableResult
    static func run(_ context: inout WriteContext) throws -> Int {
        let db = context.db
        guard let base = try SettingsHandlers.baseCurrency(db), let baseCurrency = try? Currency(code: base) else { return 0 }
        let groups = try TransactionRow.waitingGroups(db)
        guard !groups.isEmpty else { return 0 }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: .body("profileId")), now: context.date)
        let today = Timestamp.today(at: context.date)
        var converters: [Group: CurrencyConverter?] = [:]

        /// The converter for a group's day, or nil when no rate covers it (read once per group).
        func converter(_ group: Group) -> CurrencyConverter? {
            if let known = converters[group] { return known }
            let moment = group.day >= today ? nil : Timestamp.parse(group.day)
            let found: CurrencyConverter?
            do {
                let candidate = try lookup.converter(for: [group.currency, base], base: base, at: moment)
                let probe = Money(minorUnits: 1, currency: try Currency(code: group.currency))
                found = try lookup.convertIfKnown(probe, to: baseCurrency, base: base, at: moment, field: .body("rates"), using: candidate) == nil ? nil : candidate
            } catch {
                found = nil
            }
            converters[group] = found
            return found
        }

        /// The signed base amount and snapshot of one waiting row; nil while it cannot be converted.
        func converted(_ row: TransactionRow.Waiting) -> (Int64, RateSnapshot?)? {
            let walletMinor = row.walletAmountMinor
            let group = Group(currency: row.walletCurrency, day: row.date)
            if group.currency == base { return (walletMinor, nil) }
            guard let prepared = converter(group) else { return nil }
            let moment = group.day >= today ? nil : Timestamp.parse(group.day)
            do {
                let money = Money(minorUnits: Int64(walletMinor.magnitude), currency: try Currency(code: group.currency))
                guard let (conversion, snapshot) = try lookup.convertIfKnown(money, to: baseCurrency, base: base, at: moment, field: .body("rates"), using: prepared) else { return nil }
                return (walletMinor.signum() * conversion.result.minorUnits, snapshot)
            } catch {
                return nil
            }
        }

        let covered = groups.compactMap { row -> Group? in
            let group = Group(currency: row.currency, day: row.day)
            return group.currency == base || converter(group) != nil ? group : nil
        }
        var filled = 0
        for group in covered {
            // Keyset pages over the group's waiting rows: a row left waiting (an amount too
            // large for the rate, a transfer whose other leg cannot be converted) is passed over.
            var after: Int64 = 0
            while true {
                let page = try TransactionRow.waitingPage(db, day: group.day, currency: group.currency, after: after, limit: pageSize)
                guard let last = page.last else { break }
                after = last.id
                filled += try fill(page, converted: converted, &context)
            }
        }
        return filled
    }

    /// Fills one page of waiting rows (with their transfer partners) in one step.
    private static func fill(_ page: [TransactionRow.Waiting], converted: (TransactionRow.Waiting) -> (Int64, RateSnapshot?)?, _ context: inout WriteContext) throws -> Int {
        let db = context.db
        var fills: [(id: Int64, baseMinor: Int64, snapshot: RateSnapshot?)] = []
        var handled = Set<Int64>()
        for row in page {
            let id = row.id
            guard handled.insert(id).inserted, let own = converted(row) else { continue }
            guard let partnerId = row.counterpartyId else {
                fills.append((id, own.0, own.1))
                continue
            }
            handled.insert(partnerId)
            guard let partner = try TransactionRow.waitingPartner(db, id: partnerId), let theirs = converted(partner) else { continue }
            fills.append((id, own.0, own.1))
            if partner.baseAmountMinor == nil { fills.append((partnerId, theirs.0, theirs.1)) }
        }
        // A partner already filled on an earlier page of another group is not filled twice.
        fills = try fills.filter { fill in
            try TransactionRow.waitsForBaseAmount(db, id: fill.id)
        }
        guard !fills.isEmpty else { return 0 }
        try LedgerTotals.apply(db, ids: fills.map(\.id), sign: -1)
        let snapshots = ConversionSnapshotIds(db: db)
        for fill in fills {
            try TransactionRow.fillBaseAmount(db, id: fill.id, baseAmountMinor: fill.baseMinor,
                                              baseConversionId: try snapshots.id(of: TransactionConversion.json(fill.snapshot)), updatedAt: context.now)
        }
        try LedgerTotals.apply(db, ids: fills.map(\.id), sign: 1)
        for fill in fills {
            try context.record(.txUpdated, id: String(fill.id), data: try TransactionHandlers.fetch(db, id: fill.id))
        }
        return fills.count
    }
}
