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
        let entries = try LiabilityEntryRow.history(db, liabilityId: liabilityId).map { row in
            let kind = LiabilityEntryKind(rawValue: row.kind) ?? .balance
            balance = kind == .balance ? row.amountMinor : balance - row.amountMinor
            return Entry(id: row.id ?? 0, date: row.date, kind: kind, amount: row.amountMinor, balanceAfter: balance, walletId: row.walletId,
                         transactionId: row.transactionId, notes: row.notes, createdAt: row.createdAt)
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
