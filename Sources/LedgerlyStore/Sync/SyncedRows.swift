import GRDB

/// Takes transactions out of the ledger so that a synced change can record them again under the
/// same ids: out of the report totals and the wallets' balances, then deleted (their tags and
/// split parts go with them). No event: the write that records them again logs `tx.updated`.
enum SyncedRows {
    static func removeTransactions(_ db: Database, ids: [Int64]) throws {
        try LedgerTotals.apply(db, ids: ids, sign: -1)
        for id in ids {
            guard let row = try db.cachedRow(sql: "SELECT wallet_id, wallet_amount_minor FROM transactions WHERE id = ?", arguments: [id]) else { continue }
            try db.execute(cached: "DELETE FROM transactions WHERE id = ?", arguments: [id])
            try WalletRow.adjustBalance(db, walletId: row[0], by: -(row[1] as Int64))
        }
    }
}
