import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.balance`: each wallet's maintained balance, valued in the base currency with the
/// active profile's rate in force now. The total is net worth from wallets: every wallet with
/// `includeInNetWorth`, archived or not.
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
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM wallets WHERE archived = 0 OR ? OR balance_minor != 0 ORDER BY sort_order, name COLLATE NOCASE", arguments: [archived])
        var total: Int64 = 0
        var unvalued: [Int64] = []
        var balances: [WalletBalance] = []
        for row in rows {
            let wallet = try WalletRow(row: row).record
            let counted = wallet.includeInNetWorth
            let currency = try InputRules.currency(wallet.currency, field: .wholeBody)
            let balance = Money(minorUnits: row["balance_minor"], currency: currency)
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
        return BalanceReport(baseCurrency: base, wallets: balances, total: base.map { InputRules.format(total, $0) }, unvalued: unvalued,
                             asOf: Timestamp.string(from: now))
    }
}
