import GRDB
import LedgerlyProtocol

/// The one-time repair of average-cost pools that the old rule left a minor unit or two off
/// (D414, D415): schema step `v28-average-cost-replay` only marks it as due, and the store runs it
/// after every schema step has run, with the code and tables of the version that runs it. A
/// schema step that ran today's replay itself would read rows through today's record types, and
/// fail on an older ledger once a later step adds a column those types read.
enum AverageCostRepair {
    /// The `meta` key that says the repair is due.
    static let dueKey = "average-cost-replay-due"

    /// Marks the repair as due (the schema step's whole work). `MetaRow` writes only the
    /// table's two columns, which every schema version has.
    static func markDue(_ db: Database) throws {
        try MetaRow.set(dueKey, to: "1", db)
    }

    /// Replays every asset traded in an average-cost account once, if due, and clears the mark,
    /// in one transaction. Returns how many assets were replayed.
    @discardableResult
    static func runIfDue(_ db: Database) throws -> Int {
        guard try MetaRow.value(dueKey, db) != nil else { return 0 }
        let assets = try TradeRow.assetIdsInAverageCostAccounts(db)
        for asset in assets { try TradeReplay.replay(db, assetId: asset, field: .wholeBody, merging: true) }
        try MetaRow.remove(dueKey, db)
        return assets.count
    }
}
