import LedgerlyProtocol

/// Which changes can give the net-worth snapshots a month to take (D403): a write dated in a
/// month that has ended — a back-dated transaction, transfer, import, trade — may start the
/// ledger's history earlier, and every ended month from there on without a snapshot is missing.
/// The snapshotter is woken for those instead of finding them at its 10-minute check.
///
/// Transactions and trades carry their day, so the many writes of today (an import of this
/// month's statement, a day of spending) do not wake it. Manual assets and liabilities are woken
/// on every change: their record shows the newest valuation, not the back-dated one just added,
/// and they are written by hand, a few at a time.
enum PastMonthChange {
    /// The days (YYYY-MM-DD) or months (YYYY-MM) the change writes history for; nil when the
    /// change may write any month; empty when it writes none.
    static func dates(of change: ChangePayload) -> [String]? {
        switch change {
        case .txCreated(let transaction), .txUpdated(let transaction), .txDeleted(let transaction): [transaction.date]
        case .txImported(let summary), .txImportUndone(let summary): summary.months
        case .tradeRecorded(let trade), .tradeDeleted(let trade): [trade.date]
        case .tradesImported, .manualAssetCreated, .manualAssetUpdated, .liabilityCreated, .liabilityUpdated: nil
        default: []
        }
    }

    /// Whether the change writes history for a month before `currentMonth` (YYYY-MM).
    static func touchesEndedMonth(_ change: ChangePayload, currentMonth: String) -> Bool {
        guard let dates = dates(of: change) else { return true }
        return dates.contains { $0.prefix(7) < currentMonth }
    }
}
