import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.balance`: each wallet's maintained balance, valued in the base currency with the
/// active profile's rate in force now. The total is the wallets' and investment accounts' part
/// of net worth, "Wallets and investments": every wallet and account with `includeInNetWorth`,
/// archived or not. Net worth itself (with manual assets and liabilities) is `networth.get` (D411).
enum BalanceReporter {
    static func report(_ request: BalanceReportRequest, _ context: ReadContext) throws -> BalanceReport {
        let db = context.db, now = context.date
        let base = try SettingsHandlers.baseCurrency(db)
        let baseCurrency = try base.map { try InputRules.currency($0, field: .root("settings").member("baseCurrency")) }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: .wholeBody), now: now)
        // An archived wallet that still holds money is listed (marked archived) even without
        // `includeArchived`: `includeInNetWorth` decides what the total counts, not archiving, and
        // the total never counts money the list does not show (D78).
        let archived = request.includeArchived ?? false
        var total: Int64 = 0
        var unvalued: [Int64] = []
        var balances: [WalletBalance] = []
        for row in try WalletRow.forBalances(db, includeArchived: archived) {
            let wallet = row.record
            let counted = wallet.includeInNetWorth
            let currency = try InputRules.currency(wallet.currency, field: .wholeBody)
            let balance = Money(minorUnits: row.balanceMinor, currency: currency)
            var value: Int64?
            var rate: RateSnapshot?
            if let baseCurrency {
                if currency == baseCurrency {
                    value = balance.minorUnits
                } else if let (conversion, snapshot) = try lookup.convertIfKnown(
                    Money(minorUnits: Int64(balance.minorUnits.magnitude), currency: currency), to: baseCurrency, base: base, at: nil, field: .wholeBody) {
                    value = balance.minorUnits.signum() * conversion.result.minorUnits
                    rate = snapshot
                }
            }
            if let value, counted {
                total = try CheckedMinorUnits.add(total, value)
            } else if counted && baseCurrency != nil {
                unvalued.append(wallet.id)
            }
            balances.append(WalletBalance(walletId: wallet.id, name: wallet.name, currency: wallet.currency, balance: wallet.balance,
                                          baseValue: value.map { InputRules.format($0, base!) }, rate: rate,
                                          includeInNetWorth: wallet.includeInNetWorth, archived: wallet.archived))
        }
        let (investments, unvaluedInvestments) = try investmentBalances(db, now: now, base: baseCurrency, total: &total)
        return BalanceReport(baseCurrency: base, wallets: balances, investments: investments, total: base.map { InputRules.format(total, $0) }, unvalued: unvalued,
                             unvaluedInvestments: unvaluedInvestments, asOf: Timestamp.string(from: now))
    }

    /// Each investment account's holdings valued as `invest.holdings` values them, in the
    /// account's base currency and the ledger's; the ones counted in net worth added to `total`.
    private static func investmentBalances(_ db: Database, now: Date, base: Currency?, total: inout Int64) throws -> ([InvestmentBalance], [Int64]) {
        var reader = try HoldingsReader(db: db, now: now)
        let holdings = try reader.holdings(accountId: nil, includeLots: false)
        guard !holdings.isEmpty else { return ([], []) }
        let accounts = try InvestAccountRow.all(db)
        var balances: [InvestmentBalance] = []
        var unvalued: [Int64] = []
        for accountId in Set(holdings.map(\.record.accountId)).sorted() {
            guard let account = accounts[accountId] else { continue }
            let held = holdings.filter { $0.record.accountId == accountId }
            let value = held.compactMap(\.valueBase).reduce(0, +)
            // None of its holdings valued: the account is not valued, never worth 0 (D410).
            let valued = held.contains { $0.valueBase != nil }
            var warnings = held.flatMap { $0.valueBase == nil ? $0.record.warnings.map { "\($0)" } : [] }
            var baseValue: Int64?
            if let base, valued {
                let own = try InputRules.currency(account.baseCurrency, field: .wholeBody)
                if own == base {
                    baseValue = value
                } else if let rate = try? TradeRules.rate(nil, from: own, to: base, day: Timestamp.today(at: now), db: db, now: now, field: .wholeBody) {
                    baseValue = try TradeRules.convert(value, from: own, to: base, rate: rate, field: .wholeBody)
                } else {
                    warnings.append("no rate from \(own.code) to \(base.code) is known: the account is not in the total")
                }
            }
            if account.includeInNetWorth {
                if let baseValue { total = try CheckedMinorUnits.add(total, baseValue) }
                if baseValue == nil || held.contains(where: { $0.valueBase == nil }) { unvalued.append(accountId) }
            }
            balances.append(InvestmentBalance(
                accountId: accountId, name: account.name, currency: account.baseCurrency, value: valued ? InputRules.format(value, account.baseCurrency) : nil,
                baseValue: baseValue.flatMap { value in base.map { InputRules.format(value, $0.code) } }, includeInNetWorth: account.includeInNetWorth,
                archived: account.archived, warnings: warnings))
        }
        return (balances, unvalued)
    }
}
