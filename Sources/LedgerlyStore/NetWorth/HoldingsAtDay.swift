import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The units each investment account held of each asset at the end of a day: today's are the
/// maintained positions; a past day's come from replaying the trades dated on or before it with
/// `LotBook` (splits and transfers as they happened), less those the lots leave out (D312).
/// Costs play no part here.
struct HoldingsAtDay {
    let db: Database
    let day: String
    let today: String

    /// Account id → asset id → units (only those above zero).
    func quantities() throws -> [Int64: [Int64: Quantity]] {
        var result: [Int64: [Int64: Quantity]] = [:]
        if day >= today {
            for held in try PositionRow.units(db) {
                let units = try Quantity(stored: held.quantity)
                guard units > .zero else { continue }
                result[held.accountId, default: [:]][held.assetId] = units
            }
            return result
        }
        let methods = try InvestAccountRow.all(db).mapValues(\.method)
        let trades = try TradeRow.countedUpTo(db, day: day)
        var start = trades.startIndex
        while start < trades.endIndex {
            let assetId = trades[start].assetId
            var end = start
            while end < trades.endIndex && trades[end].assetId == assetId { end += 1 }
            // Costs are not needed: any conversion will do, and the book never fails for want of one.
            var book = LotBook(method: { methods[$0] ?? .fifo }, toBase: { _, amount, _ in amount })
            do {
                try book.apply(try trades[start..<end].compactMap { try $0.bookTrade() })
            } catch {
                throw LedgerError.broken("the trades of asset \(assetId) up to \(day) do not replay: \(error)")
            }
            for lot in book.lots where lot.quantity > .zero {
                let held = result[lot.accountId, default: [:]][assetId] ?? .zero
                result[lot.accountId, default: [:]][assetId] = held + lot.quantity
            }
            start = end
        }
        return result
    }
}
