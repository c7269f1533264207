import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Derives an asset's `lots` and `realisations` from its trades with `LotBook`, in the write that
/// changed a trade (D130): a trade recorded after all the asset's others is applied to the lots
/// as they are; anything else (a trade dated earlier, a deletion, a new cost-basis method)
/// replays every trade of the asset from the start. Either way nothing derived is left stale.
///
/// Trades go in the order (date, created_at, recorded order, id): the time a trade was recorded
/// and its order among the trades recorded in that millisecond (a broker file's lines; the local
/// id on the device that recorded it) travel with a synced trade, so every device replays a merged
/// history in one order, whatever local ids it gave (D312).
///
/// A trade the lots cannot take is refused when the user records it. Histories merged by sync
/// may hold one anyway (two devices each sold the whole holding while apart): such a trade is
/// kept, marked `unapplied` with the reason, and left out of the lots, so every device holding
/// the same trades derives the same lots and gains (D312). Each replay tries it again: once the
/// user deletes the trade it clashed with, it counts.
enum TradeReplay {
    /// Applies `trade` to the lots as they stand, when no trade of the asset comes after it; else
    /// replays the whole asset. `field`: the request field named when the trade is the one
    /// refused. `merging`: a synced trade, marked unapplied rather than refused.
    static func record(_ db: Database, trade: TradeRow, field: FieldPath, merging: Bool = false) throws {
        let id = trade.id ?? 0
        let later = try trade.hasLaterLotTrade(db)
        guard !later, let step = try trade.bookTrade() else {
            return try replay(db, assetId: trade.assetId, newTradeId: id, field: field, merging: merging)
        }
        var book = try self.book(db, assetId: trade.assetId, lots: try LotRow.bookLots(db, assetId: trade.assetId))
        do {
            try book.apply(step)
        } catch {
            guard merging else { throw try refusal(db, error, newTradeId: id, field: field) }
            // The lots as they were: the trade is kept and left out of them.
            try TradeRow.setUnapplied(db, id: id, reason: error.description)
            return
        }
        try write(db, assetId: trade.assetId, lots: book.lots, realisations: book.realisations, replacingRealisations: false)
    }

    /// Replays every trade of the asset from nothing. A trade that did not count before may be
    /// left out again; one that did and no longer can is refused, unless `merging`.
    static func replay(_ db: Database, assetId: Int64, newTradeId: Int64? = nil, field: FieldPath, merging: Bool = false) throws {
        let trades = try TradeRow.ofAsset(db, assetId: assetId)
        var book = try self.book(db, assetId: assetId, lots: [])
        let steps = try trades.compactMap { try $0.bookTrade() }
        var unapplied: [Int64: String] = [:]
        do {
            try book.apply(steps)
        } catch {
            // Trade by trade, each on a copy of the book, so one that cannot be applied leaves
            // the book as it was. Each copy copies the lots and realisations so far, which makes
            // this quadratic in the asset's trades; it runs only for an asset whose trades do not
            // all fit (one holds a trade left out), which only sync brings.
            book = try self.book(db, assetId: assetId, lots: [])
            for step in steps {
                var trial = book
                do {
                    try trial.apply(step)
                    book = trial
                } catch {
                    let wasLeftOut = trades.first { $0.id == step.id }?.unapplied != nil
                    guard merging || (wasLeftOut && step.id != newTradeId) else { throw try refusal(db, error, newTradeId: newTradeId, field: field) }
                    unapplied[step.id] = error.description
                }
            }
        }
        for trade in trades where trade.unapplied != unapplied[trade.id ?? 0] {
            try TradeRow.setUnapplied(db, id: trade.id, reason: unapplied[trade.id ?? 0])
        }
        try write(db, assetId: assetId, lots: book.lots, realisations: book.realisations, replacingRealisations: true)
    }

    /// A book over the given lots of an asset, with every account's method, converting the
    /// asset's currency to each account's base currency.
    private static func book(_ db: Database, assetId: Int64, lots: [LotBook.Lot]) throws -> LotBook {
        let accounts = try InvestAccountRow.all(db)
        let methods = accounts.mapValues(\.method)
        let bases = try accounts.mapValues { try InputRules.currency($0.baseCurrency, field: .wholeBody) }
        let quote = try AssetRow.find(db, id: assetId, field: .wholeBody).currency
        return LotBook(lots: lots, method: { methods[$0] ?? .fifo }, toBase: { account, amount, rate in
            guard let base = bases[account] else { return nil }
            return try? CurrencyConverter.apply(rate, to: Money(minorUnits: amount, currency: quote), target: base).minorUnits
        })
    }

    /// Writes what the book derived: the asset's lots, its positions (the lots summed per
    /// account, kept beside them so holdings read one row per account and asset instead of every
    /// lot) and its realisations, through their owners' statements (D454, D455).
    private static func write(_ db: Database, assetId: Int64, lots: [LotBook.Lot], realisations: [LotBook.Realisation], replacingRealisations: Bool) throws {
        try LotRow.replace(db, assetId: assetId, with: lots)
        try PositionRow.replace(db, assetId: assetId, summing: lots)
        if replacingRealisations { try RealisationRow.delete(db, assetId: assetId) }
        try RealisationRow.insert(db, assetId: assetId, realisations)
    }

    /// The refusal for a trade the lots cannot take: the new trade's own field when it is the
    /// one, else a conflict naming the later trade it would break.
    private static func refusal(_ db: Database, _ error: LotBookError, newTradeId: Int64?, field: FieldPath) throws -> LedgerError {
        if error.tradeId == newTradeId {
            return LedgerError.invalid("the account cannot do this trade: \(error.description)", field: field)
        }
        let broken = try TradeRow.fetchOne(db, key: error.tradeId)
        let what = broken.map { "\($0.kind) of \($0.quantity ?? "") on \($0.date)" } ?? "a later trade"
        return LedgerError.conflict("this would break trade \(error.tradeId) (\(what)): \(error.description); delete or change that trade first", field: field)
    }
}
