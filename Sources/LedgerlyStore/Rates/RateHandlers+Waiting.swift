import GRDB
import LedgerlyProtocol

extension RateHandlers {
    /// `rates.waiting`: the transactions still waiting for a base amount, per wallet currency,
    /// read from the partial index of waiting rows (no scan of the ledger).
    static func waiting(_ request: RatesWaitingRequest, _ db: Database) throws -> RatesWaitingReply {
        let base = try SettingsHandlers.baseCurrency(db)
        let profile = try activeProfile(db, id: nil, mode: nil, field: .wholeBody)
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT w.currency AS currency, count(*) AS count, min(t.date) AS earliest, max(t.date) AS latest
            FROM transactions t INDEXED BY transactions_waiting_by_date JOIN wallets w ON w.id = t.wallet_id
            WHERE t.base_amount_minor IS NULL GROUP BY w.currency ORDER BY w.currency
            """))
        let pairs = rows.map { row in
            WaitingPair(from: row["currency"], to: base ?? "", count: row["count"], earliestDate: row["earliest"], latestDate: row["latest"])
        }
        return RatesWaitingReply(baseCurrency: base, profile: profile.name, pairs: pairs)
    }
}
