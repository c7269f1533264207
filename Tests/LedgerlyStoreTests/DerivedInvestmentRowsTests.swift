import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// The owners of the tables the replay derives from the trades (`lots`, `positions`,
/// `realisations`, D454): their record types read back what the replay's named statements wrote,
/// column for column, and write a row the statements read again.
@Suite struct DerivedInvestmentRowsTests {
    /// The worked example by FIFO (buy 10 and 5, sell 8), plus a second account holding the asset.
    static func ledger() async throws -> (InvestmentTests.Ledger, other: InvestAccountRecord, otherBuy: TradeRecord) {
        let ledger = try await InvestmentTests.example(.fifo)
        let other = try await ledger.store.call(InvestAccountCreateRequest(name: "Second", costBasisMethod: .fifo))
        let buy = try await ledger.store.call(TradeBuyRequest(accountId: other.id, assetId: ledger.asset.id, quantity: "3", price: "90", date: "2026-01-05", rate: "0.90"))
        return (ledger, other, buy)
    }

    @Test func lotsAndPositionsReadBackAsTheReplayWroteThem() async throws {
        let (ledger, other, otherBuy) = try await Self.ledger()
        let account = ledger.account.id, asset = ledger.asset.id
        let pool = ledger.store.database.pool
        let (lots, mine, positions) = try await pool.read { db in
            (try LotRow.open(db, accountId: nil), try LotRow.open(db, accountId: account), try PositionRow.held(db, accountId: nil))
        }
        // FIFO took the first buy's 8 of 10: 2 of it and the second buy's 5 are left; by account, then day.
        #expect(lots.map(\.accountId) == [account, account, other.id])
        #expect(lots.map(\.quantity) == ["2", "5", "3"])
        #expect(lots.map(\.acquired) == ["2026-01-10", "2026-02-10", "2026-01-05"])
        #expect(lots.map(\.id) == [ledger.trades[0].id, ledger.trades[1].id, otherBuy.id])
        #expect(mine.map(\.id) == lots.prefix(2).map(\.id) && mine.map(\.quantity) == lots.prefix(2).map(\.quantity))
        let book = try await pool.read { db in try LotRow.bookLots(db, assetId: asset) }
        #expect(Set(book) == Set(try lots.map { try $0.bookLot }))
        // Each position is its account's lots summed.
        let byAccount = Dictionary(grouping: lots, by: \.accountId)
        #expect(positions.count == 2)
        for position in positions {
            let summed = try #require(byAccount[position.accountId])
            #expect(position.assetId == asset)
            let units = try summed.map { try Quantity(stored: $0.quantity) }
            #expect(try Quantity(stored: position.quantity) == units.reduce(Quantity.zero, +))
            #expect(position.costMinor == summed.map(\.costMinor).reduce(0, +))
            #expect(position.costBaseMinor == summed.map(\.costBaseMinor).reduce(0, +))
        }
        let units = try await pool.read { db in try PositionRow.units(db) }
        #expect(Set(units.map { "\($0.accountId)/\($0.assetId)/\($0.quantity)" }) == Set(positions.map { "\($0.accountId)/\($0.assetId)/\($0.quantity)" }))
        // The records' own reads agree with the named statements.
        let fetched = try await pool.read { db in (try LotRow.fetchAll(db), try PositionRow.fetchAll(db)) }
        #expect(Set(fetched.0.map(\.id)) == Set(lots.map(\.id)) && fetched.0.count == lots.count)
        #expect(Set(fetched.1.map(\.accountId)) == Set(positions.map(\.accountId)))
    }

    @Test func aSalesRealisationsReadBackAsTheGainsReportThem() async throws {
        let (ledger, _, _) = try await Self.ledger()
        let sale = ledger.trades[2], asset = ledger.asset.id
        let pool = ledger.store.database.pool
        let rows = try await pool.read { db in try RealisationRow.order(RealisationRow.Columns.position).fetchAll(db) }
        let figures = try await pool.read { db in try RealisationRow.figures(db, tradeId: sale.id) }
        #expect(rows.map(\.tradeId) == [sale.id])
        #expect(rows.map(\.figures.lotId) == figures.map(\.lotId) && rows.map(\.figures.quantity) == figures.map(\.quantity))
        #expect(rows.map(\.figures.costBase) == figures.map(\.costBase) && rows.map(\.figures.currencyEffect) == figures.map(\.currencyEffect))
        #expect(rows.allSatisfy { $0.baseCurrency == "EUR" && $0.date == sale.date && $0.accountId == ledger.account.id && $0.assetId == asset })
        let gains = try await ledger.store.call(GainsRequest(year: 2026))
        #expect(RealisationRow.Figures.sum(figures).gain(quoteExponent: 2, baseExponent: 2) == sale.realised)
        #expect(gains.sales.map(\.realised) == [try #require(sale.realised)])
        // Written back through the record, the row reads as the named statements read it.
        let again = try await pool.write { db in
            try RealisationRow.delete(db, tradeId: sale.id)
            for row in rows { try row.insert(db) }
            return (try RealisationRow.figures(db, tradeId: sale.id), try RealisationRow.sumsBySale(db, assetId: asset))
        }
        #expect(again.0.map(\.lotId) == figures.map(\.lotId) && again.0.map(\.proceedsBase) == figures.map(\.proceedsBase))
        #expect(again.1[sale.id]?.last == Int64(rows.count))
        let totals = try await pool.read { db in try RealisationRow.totals(db, conditions: [], arguments: []) }
        #expect(totals.map(\.baseCurrency) == ["EUR"] && totals.map(\.sales) == [1])
    }

    /// `invest.gains` reads a page's sales by their ids, or by their range when the page holds more
    /// than `GainsReader.pageByIds`: both reads give the same sales, parts and order.
    @Test func aPageOfSalesReadsTheSameByIdsAsByItsRange() async throws {
        let (ledger, other, _) = try await Self.ledger()
        for (account, day, quantity) in [(ledger.account.id, "2026-04-10", "3"), (other.id, "2026-04-10", "2"), (ledger.account.id, "2026-05-10", "3")] {
            _ = try await ledger.store.call(TradeSellRequest(accountId: account, assetId: ledger.asset.id, quantity: quantity, price: "140", date: day, rate: "0.92"))
        }
        let pool = ledger.store.database.pool
        let (page, byIds, byRange) = try await pool.read { db in
            let conditions = ["r.date BETWEEN ? AND ?"], arguments: StatementArguments = ["2026-01-01", "2026-12-31"]
            let page = try RealisationRow.salesPage(db, conditions: conditions, arguments: arguments, limit: nil)
            let inner = Array(page.dropFirst())
            return (page, try RealisationRow.saleParts(db, tradeIds: inner.map(\.tradeId)),
                    try RealisationRow.saleParts(db, conditions: conditions, arguments: arguments, first: inner.first!, last: inner.last!))
        }
        #expect(page.map(\.date) == ["2026-03-10", "2026-04-10", "2026-04-10", "2026-05-10"])
        #expect(byIds.map(\.tradeId) == page.dropFirst().map(\.tradeId))
        #expect(byRange.map(\.tradeId) == byIds.map(\.tradeId))
        #expect(byRange.map { $0.parts.map(\.lotId) } == byIds.map { $0.parts.map(\.lotId) })
        #expect(byRange.map { $0.parts.map(\.proceedsBase) } == byIds.map { $0.parts.map(\.proceedsBase) })
        #expect(byIds.map(\.accountId) == [ledger.account.id, other.id, ledger.account.id])
        #expect(byIds.allSatisfy { $0.symbol == "ACME" && $0.currency == "USD" && $0.baseCurrency == "EUR" && $0.method == "fifo" })
        // By FIFO, April's 3 take the first buy's last 2 and 1 of the second's; May's 3 come from the second.
        #expect(byIds.map(\.parts.count) == [2, 1, 1])
    }
}
