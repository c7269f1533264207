import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `report.balance`: each wallet's maintained balance, valued in the base currency with the
/// active profile's rate in force now.
enum BalanceReporter {
    static func report(_ request: BalanceReportRequest, _ db: Database, now: Date) throws -> BalanceReport {
        let base = try SettingsHandlers.baseCurrency(db)
        let baseCurrency = try base.map { try InputRules.currency($0, field: "settings.baseCurrency") }
        let lookup = try RateLookup(db: db, profile: try RateHandlers.activeProfile(db, id: nil, mode: nil, field: "body"), now: now)
        let archived = request.includeArchived ?? false
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM wallets WHERE archived = 0 OR ? ORDER BY sort_order, name COLLATE NOCASE", arguments: [archived])
        var total: Int64 = 0
        var unvalued: [Int64] = []
        var balances: [WalletBalance] = []
        for row in rows {
            let wallet = WalletHandlers.record(row)
            let counted = wallet.includeInNetWorth && !wallet.archived
            let currency = try InputRules.currency(wallet.currency, field: "body")
            let balance = Money(minorUnits: row["balance_minor"], currency: currency)
            var value: Int64?
            var rate: RateSnapshot?
            if let baseCurrency {
                if currency == baseCurrency {
                    value = balance.minorUnits
                } else if let (conversion, snapshot) = try lookup.convertIfKnown(
                    Money(minorUnits: Int64(balance.minorUnits.magnitude), currency: currency), to: baseCurrency, base: base, at: nil, field: "body") {
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
