import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Net worth at the end of a day (today: now), read from history by the rules of
/// docs/networth.md: one item per wallet, investment account, manual asset and liability that
/// exists then, each converted once to the base currency at the rate in force at the moment,
/// and the figures summed from the items' parts.
struct NetWorthCalculator {
    let db: Database
    let now: Date
    private let base: Currency
    private let lookup: RateLookup
    private let settings: SettingsRow

    /// A rate or price this much older than a past moment is used and said (daily closes are
    /// the rule, so a day or a weekend is not worth a warning).
    static let pastStaleness: TimeInterval = 7 * 86_400

    init(db: Database, now: Date) throws {
        self.db = db
        self.now = now
        guard let code = try SettingsHandlers.baseCurrency(db) else {
            throw LedgerError.conflict("the ledger has no base currency yet: finish `ledgerly setup` first", field: .wholeBody)
        }
        self.base = try InputRules.currency(code, field: .wholeBody)
        self.lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: .wholeBody), now: now)
        self.settings = try SettingsRow.current(db)
    }

    /// The figures at the end of `day` (YYYY-MM-DD, not after today).
    func compute(day: String) throws -> NetWorthComputation {
        let today = Timestamp.today(at: now)
        let moment = TransactionConversion.endOfDay(day, now: now)
        var parts = NetWorthParts(base: base)
        let converter = try lookup.converter(for: try currenciesInvolved(), base: base.code, at: moment)
        let value = { (minor: Int64, currency: String, warnings: inout [String]) throws -> (Int64, RateSnapshot?)? in
            try self.toBase(minor, currency: currency, moment: moment, converter: converter, warnings: &warnings)
        }

        // Wallets: the kept balance less what is dated after the day (`WalletRow.atDay`).
        for wallet in try WalletRow.atDay(day, db) {
            guard wallet.createdOn <= day || (wallet.firstTransactionOn.map { $0 <= day } ?? false) else { continue }
            let amount = wallet.balanceAtDay
            if wallet.archived && amount == 0 { continue }
            var warnings: [String] = []
            let valued = try value(amount, wallet.currency, &warnings)
            try parts.add(kind: .wallet, id: wallet.id, name: wallet.name, currency: wallet.currency, amount: amount, valued: valued,
                      core: true, tangible: true, volatile: false, counted: wallet.includeInNetWorth, archived: wallet.archived, warnings: warnings)
        }

        // Investment accounts: units from the trades up to the day, at the latest price.
        let holdings = try HoldingsAtDay(db: db, day: day, today: today).quantities()
        if !holdings.isEmpty {
            let speculative = Set(settings.speculativeGroupList)
            let assets = Dictionary(uniqueKeysWithValues: try AssetRow.fetchAll(db).map { ($0.id ?? 0, $0) })
            for account in try InvestAccountRow.byName(db, includeArchived: true) {
                guard let held = holdings[account.id ?? 0], !held.isEmpty else { continue }
                var warnings: [String] = []
                var total: Int64 = 0, risky: Int64 = 0
                var valuedHoldings = 0
                var unvalued: [String] = []
                for (assetId, quantity) in held.sorted(by: { $0.key < $1.key }) {
                    guard let asset = assets[assetId] else { continue }
                    guard let worth = try holdingValue(asset, quantity: quantity, moment: moment, warnings: &warnings),
                          let (valueBase, _) = try value(worth, asset.quoteCurrency, &warnings) else {
                        unvalued.append(asset.symbol)
                        continue
                    }
                    valuedHoldings += 1
                    total = try CheckedMinorUnits.add(total, valueBase)
                    if let group = asset.allocationGroup, speculative.contains(group) { risky = try CheckedMinorUnits.add(risky, valueBase) }
                }
                try parts.addAccount(id: account.id ?? 0, name: account.name, value: total, speculative: risky, valuedHoldings: valuedHoldings, unvalued: unvalued,
                                     counted: account.includeInNetWorth, archived: account.archived, warnings: warnings)
            }
        }

        // Manual assets: the latest valuation on or before the day.
        for (asset, amount) in try ManualAssetRow.withValue(on: day, db) {
            guard let amount else { continue }
            if asset.archived && amount == 0 { continue }
            var warnings: [String] = []
            let valued = try value(amount, asset.currency, &warnings)
            try parts.add(kind: .asset, id: asset.id ?? 0, name: asset.name, currency: asset.currency, amount: amount, valued: valued,
                      core: asset.includeInCore, tangible: asset.includeInTangible, volatile: asset.volatile, counted: true, archived: asset.archived, warnings: warnings)
        }

        // Liabilities: the balance after the last entry on or before the day, counted negative.
        for liability in try LiabilityRow.byName(db, includeArchived: true) {
            guard let balance = try LiabilityHistory.read(db, liabilityId: liability.id ?? 0).balance(on: day) else { continue }
            if liability.archived && balance == 0 { continue }
            var warnings: [String] = []
            let valued = try value(balance, liability.currency, &warnings).map { (-$0.0, $0.1) }
            try parts.add(kind: .liability, id: liability.id ?? 0, name: liability.name, currency: liability.currency, amount: balance, valued: valued,
                      core: true, tangible: true, volatile: false, counted: true, archived: liability.archived, warnings: warnings)
        }
        return NetWorthComputation(date: day, asOf: moment ?? now, baseCurrency: base.code, sums: parts.sums, items: parts.items, complete: parts.complete)
    }

    // MARK: Values

    /// An amount in the base currency (rounded half to even once) and the rate used; nil, with
    /// a warning, when no rate is known at the moment.
    private func toBase(_ minor: Int64, currency code: String, moment: Date?, converter: CurrencyConverter, warnings: inout [String]) throws -> (Int64, RateSnapshot?)? {
        if code == base.code { return (minor, nil) }
        let currency = try InputRules.currency(code, field: .wholeBody)
        let magnitude = Money(minorUnits: Int64(minor.magnitude), currency: currency)
        guard let (conversion, snapshot) = try lookup.convertIfKnown(magnitude, to: base, base: base.code, at: moment, field: .wholeBody, using: converter) else {
            warnings.append("no \(code)→\(base.code) rate is known at \(Timestamp.string(from: moment ?? now)) in profile '\(lookup.profile.name)': not counted")
            return nil
        }
        if moment == nil, let stale = lookup.warning(for: conversion) {
            warnings.append("\(code)→\(base.code) \(stale)")
        } else if let moment, let asOf = conversion.asOf, moment.timeIntervalSince(asOf) > Self.pastStaleness {
            warnings.append("the \(code)→\(base.code) rate used is from \(Timestamp.string(from: asOf)), more than 7 days before")
        }
        return (minor.signum() * conversion.result.minorUnits, snapshot)
    }

    /// A holding's value in its quote currency: units × the latest price at or before the moment,
    /// rounded half to even to the currency's minor unit (as `invest.holdings` values it).
    private func holdingValue(_ asset: AssetRow, quantity: Quantity, moment: Date?, warnings: inout [String]) throws -> Int64? {
        let cutoff = Timestamp.string(from: moment ?? now)
        guard let (price, asOf) = try PriceSnapshotRow.latest(db, assetId: asset.id, atOrBefore: cutoff) else {
            warnings.append("\(asset.symbol) has no price at or before \(cutoff): \(quantity) units not counted")
            return nil
        }
        if let quoted = Timestamp.parse(asOf) {
            let age = (moment ?? now).timeIntervalSince(quoted)
            let limit = moment == nil ? TimeInterval(asset.staleMinutes(settings) * 60) : Self.pastStaleness
            if age > limit { warnings.append("the price of \(asset.symbol) is from \(asOf), \(StalenessPolicy.describe(.seconds(Int64(age)))) old: used anyway") }
        }
        guard let value = TradeRules.value(quantity, try ExchangeRate(stored: price), currency: try asset.currency) else {
            warnings.append("\(quantity) \(asset.symbol) is too large a value to count")
            return nil
        }
        return value
    }

    /// Every currency an item may be in, so one converter serves the whole computation.
    private func currenciesInvolved() throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT currency FROM wallets UNION SELECT quote_currency FROM assets UNION SELECT currency FROM manual_assets UNION SELECT currency FROM liabilities
            """)
    }
}
