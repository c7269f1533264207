import GRDB
import LedgerlyProtocol

extension RateHandlers {
    /// `rates.waiting`: the transactions still waiting for a base amount, per wallet currency,
    /// read from the partial index of waiting rows (no scan of the ledger).
    static func waiting(_ request: RatesWaitingRequest, _ db: Database) throws -> RatesWaitingReply {
        let base = try SettingsHandlers.baseCurrency(db)
        let profile = try activeProfile(db, id: nil, mode: nil, field: .wholeBody)
        let pairs = try TransactionRow.waitingByCurrency(db).map { group in
            WaitingPair(from: group.currency, to: base ?? "", count: group.count, earliestDate: group.earliest, latestDate: group.latest)
        }
        return RatesWaitingReply(baseCurrency: base, profile: profile.name, pairs: pairs)
    }
}
