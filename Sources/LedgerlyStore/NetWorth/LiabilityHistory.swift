import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A liability's entries in order (day, then id) with the balance after each: a `balance` entry
/// sets it, a `payment` lowers it. The balance at a day is the one after its last entry on or
/// before that day.
struct LiabilityHistory {
    struct Entry {
        let id: Int64
        let date: String
        let kind: LiabilityEntryKind
        /// Minor units: the balance set or the amount paid.
        let amount: Int64
        let balanceAfter: Int64
        let walletId: Int64?
        let transactionId: Int64?
        let notes: String?
        let createdAt: String
    }

    let entries: [Entry]

    static func read(_ db: Database, liabilityId: Int64) throws -> LiabilityHistory {
        var balance: Int64 = 0
        // Entries of one day in the order they were recorded (`created_at` travels with a synced
        // entry; local ids do not), so every device computes the same running balances for
        // payments two devices made the same day (issue 44, convergence).
        let entries = try Row.fetchAll(db, sql: "SELECT * FROM liability_entries WHERE liability_id = ? ORDER BY date, created_at, id", arguments: [liabilityId]).map { row in
            let kind = LiabilityEntryKind(rawValue: row["kind"]) ?? .balance
            let amount: Int64 = row["amount_minor"]
            balance = kind == .balance ? amount : balance - amount
            return Entry(id: row["id"], date: row["date"], kind: kind, amount: amount, balanceAfter: balance, walletId: row["wallet_id"],
                         transactionId: row["transaction_id"], notes: row["notes"], createdAt: row["created_at"])
        }
        return LiabilityHistory(entries: entries)
    }

    /// The balance after the last entry on or before `day`; nil before the first entry.
    func balance(on day: String) -> Int64? {
        entries.last { $0.date <= day }?.balanceAfter
    }

    /// The first entry whose balance falls below zero, if any: a payment larger than the debt.
    var firstOverdrawn: Entry? { entries.first { $0.balanceAfter < 0 } }
}
