import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Investments against a real database: the worked example of docs/investments.md through the
/// store's messages, linked cash, splits, income, deleting a trade, prices and drift.
@Suite struct InvestmentTests {
    /// A store whose "today" is 2026-11-15, with a EUR ledger, a USD asset and one account per method.
    static func store() async throws -> Store {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        return store
    }

    struct Ledger {
        let store: Store
        let account: InvestAccountRecord
        let asset: AssetRecord
        var trades: [TradeRecord] = []
    }

    /// buy 10 @ 100 at 0.90, buy 5 @ 120 at 0.95, sell 8 @ 130 at 0.92, fee 1 USD each.
    static func example(_ method: CostBasisMethod, store given: Store? = nil, symbol: String = "ACME") async throws -> Ledger {
        let store: Store
        if let given { store = given } else { store = try await Self.store() }
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker \(method.rawValue) \(symbol)", costBasisMethod: method))
        let asset = try await store.call(AssetCreateRequest(symbol: symbol, assetType: .stock, quoteCurrency: "USD"))
        var ledger = Ledger(store: store, account: account, asset: asset)
        ledger.trades.append(try await store.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "10", price: "100", fee: "1", date: "2026-01-10", rate: "0.90")))
        ledger.trades.append(try await store.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "5", price: "120", fee: "1", date: "2026-02-10", rate: "0.95")))
        ledger.trades.append(try await store.call(TradeSellRequest(accountId: account.id, assetId: asset.id, quantity: "8", price: "130", fee: "1", date: "2026-03-10", rate: "0.92")))
        return ledger
    }

    @Test(arguments: [
        (CostBasisMethod.fifo, "720.72", "235.16", "219.14", "16.02"),
        (.lifo, "841.22", "114.66", "126.68", "-12.02"),
        (.average, "784.99", "170.89", "169.83", "1.06"),
    ])
    func theWorkedExampleByEachMethod(method: CostBasisMethod, costBase: String, gain: String, price: String, currency: String) async throws {
        let ledger = try await Self.example(method)
        #expect(ledger.trades[0].amountBase == "900.90" && ledger.trades[1].amountBase == "570.95" && ledger.trades[2].amountBase == "955.88")
        let realised = try #require(ledger.trades[2].realised)
        #expect(realised.costBase == costBase && realised.proceedsBase == "955.88")
        #expect(realised.gain == gain && realised.priceEffect == price && realised.currencyEffect == currency)
        let gains = try await ledger.store.call(GainsRequest(year: 2026))
        #expect(gains.sales.map(\.realised) == [realised])
        #expect(gains.totals == [GainsTotal(currency: "EUR", proceedsBase: "955.88", costBase: costBase, gain: gain, priceEffect: price, currencyEffect: currency, income: "0.00")])
        #expect(try await ledger.store.call(GainsRequest(year: 2025)).sales.isEmpty)
    }

    @Test func gainsComeAPageAtATimeWithTotalsForThePeriod() async throws {
        let ledger = try await Self.example(.fifo)
        let store = ledger.store
        for (day, price) in [("2026-04-10", "140"), ("2026-05-10", "150")] {
            _ = try await store.call(TradeSellRequest(accountId: ledger.account.id, assetId: ledger.asset.id, quantity: "1", price: price, date: day, rate: "0.92"))
        }
        let whole = try await store.call(GainsRequest(year: 2026))
        #expect(whole.saleCount == 3 && whole.sales.count == 3 && whole.next == nil)
        var pages: [SaleGain] = []
        var reply = try await store.call(GainsRequest(year: 2026, limit: 2))
        #expect(reply.saleCount == 3 && reply.totals == whole.totals && reply.next == "2026-04-10/\(reply.sales[1].tradeId)")
        pages += reply.sales
        while let next = reply.next {
            reply = try await store.call(GainsRequest(year: 2026, limit: 2, after: next))
            #expect(reply.totals == whole.totals)
            pages += reply.sales
        }
        #expect(pages == whole.sales)
        #expect(try await store.failure(GainsRequest(limit: 0)).field == "body.limit")
        #expect(try await store.failure(GainsRequest(after: "yesterday")).field == "body.after")
    }

    @Test func holdingsComeAPageAtATimeWithTotalsOverEveryHolding() async throws {
        let store = try await Self.store()
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker", costBasisMethod: .fifo))
        for (symbol, price) in [("CCC", "30"), ("AAA", "10"), ("BBB", "20")] {
            let asset = try await store.call(AssetCreateRequest(symbol: symbol, assetType: .etf, quoteCurrency: "EUR"))
            _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "3", price: "9", date: "2026-01-10"))
            _ = try await store.call(PriceSetRequest(assetId: asset.id, price: price))
        }
        let whole = try await store.call(HoldingsRequest())
        #expect(whole.holdings.map(\.symbol) == ["AAA", "BBB", "CCC"] && whole.holdingCount == 3 && whole.next == nil)
        #expect(whole.totals.map(\.valueBase) == ["180.00"])
        var pages: [HoldingRecord] = []
        var reply = try await store.call(HoldingsRequest(limit: 2))
        #expect(reply.holdingCount == 3 && reply.totals == whole.totals && reply.next == "\(account.id)/BBB")
        pages += reply.holdings
        while let next = reply.next {
            reply = try await store.call(HoldingsRequest(limit: 2, after: next))
            #expect(reply.totals == whole.totals && reply.holdingCount == 3)
            pages += reply.holdings
        }
        #expect(pages.map(\.symbol) == whole.holdings.map(\.symbol) && pages.map(\.valueBase) == whole.holdings.map(\.valueBase))
        #expect(try await store.call(HoldingsRequest(limit: 3)).next == nil)
        #expect(try await store.failure(HoldingsRequest(limit: 0)).field == "body.limit")
        #expect(try await store.failure(HoldingsRequest(after: "BBB")).field == "body.after")
    }

    @Test func deletingTheSecondBuyRecomputesTheSale() async throws {
        let ledger = try await Self.example(.lifo)
        let reply = try await ledger.store.call(TradeDeleteRequest(id: ledger.trades[1].id))
        // LIFO now takes 8 of the first lot: as FIFO did.
        #expect(reply.recomputed.map(\.id) == [ledger.trades[2].id])
        #expect(reply.recomputed.first?.realised?.gain == "235.16")
        #expect(reply.recomputed.first?.realised?.currencyEffect == "16.02")
        let holdings = try await ledger.store.call(HoldingsRequest())
        #expect(holdings.holdings.map(\.quantity) == ["2"] && holdings.holdings.first?.cost == "200.20")
        // The first buy cannot go: the sale would have nothing to sell.
        let refusal = try await ledger.store.failure(TradeDeleteRequest(id: ledger.trades[0].id))
        #expect(refusal.code == .conflict && refusal.message.contains("trade \(ledger.trades[2].id)"))
        #expect(try await ledger.store.call(GainsRequest()).sales.count == 1)
    }

    @Test func aSplitKeepsTheCostAndAnEarlierSplitReplaysTheSale() async throws {
        let ledger = try await Self.example(.fifo)
        let split = try await ledger.store.call(TradeSplitRequest(assetId: ledger.asset.id, ratio: "2:1", date: "2026-04-01"))
        #expect(split.ratio == "2:1")
        let holdings = try await ledger.store.call(HoldingsRequest(includeLots: true))
        #expect(holdings.holdings.first?.quantity == "14")  // (2 + 5) × 2
        #expect(holdings.holdings.first?.cost == "801.20")  // 200.20 + 601.00, kept
        #expect(holdings.holdings.first?.lots?.map(\.quantity) == ["4", "10"])
        // A split dated before the sale: the sale of 8 now takes 8 of the 20 units of lot 1.
        let store = ledger.store
        _ = try await store.call(TradeDeleteRequest(id: split.id))
        _ = try await store.call(TradeSplitRequest(assetId: ledger.asset.id, ratio: "2:1", date: "2026-03-01"))
        let sale = try await store.call(TradeListRequest(assetId: ledger.asset.id)).trades.first { $0.kind == .sell }
        #expect(sale?.realised?.cost == "400.40" && sale?.realised?.costBase == "360.36")
        #expect(try await store.failure(TradeSplitRequest(assetId: ledger.asset.id, ratio: "2", date: "2026-03-01")).field == "body.ratio")
    }

    @Test func cashMovesWithTheTradeAndIncomeCountsAsIncome() async throws {
        let store = try await Self.store()
        let wallet = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD", startingBalance: "5000"))
        let euros = try await store.call(WalletCreateRequest(name: "Euros", currency: "EUR", startingBalance: "100"))
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker"))
        let asset = try await store.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD"))
        let buy = try await store.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "10", price: "100", fee: "1", date: "2026-01-10", rate: "0.9", walletId: wallet.id))
        #expect(buy.cash?.amount == "1001.00")
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "3999.00")
        // A euro wallet needs what it paid, in euros.
        #expect(try await store.failure(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "1", price: "100", date: "2026-01-10", rate: "0.9", walletId: euros.id)).field == "body.cashAmount")
        // Its cash cannot be deleted alone.
        #expect(try await store.failure(TransactionDeleteRequest(id: try #require(buy.cash?.transactionId))).code == .conflict)
        let dividend = try await store.call(TradeIncomeRequest(kind: .dividend, accountId: account.id, assetId: asset.id, amount: "11.25", date: "2026-06-01", walletId: euros.id))
        #expect(dividend.amountBase == "11.25" && dividend.rate == "1")
        #expect(try await store.call(WalletGetRequest(id: euros.id)).balance == "111.25")
        #expect(try await store.call(GainsRequest(year: 2026)).totals.first?.income == "11.25")
        // Buying is not spending; the dividend is income.
        let flow = try await store.call(CashFlowReportRequest(from: "2026-01", to: "2026-06"))
        #expect(flow.total.expenses == "0.00")
        #expect(flow.total.income == "11.25")
        _ = try await store.call(TradeDeleteRequest(id: buy.id))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "5000.00")
    }

    @Test func badInputNamesTheField() async throws {
        let store = try await Self.store()
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker"))
        let asset = try await store.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD"))
        func buy(quantity: String = "1", price: String = "10", fee: String? = nil, date: String = "2026-01-10", rate: String? = "0.9") -> TradeBuyRequest {
            TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: quantity, price: price, fee: fee, date: date, rate: rate)
        }
        #expect(try await store.failure(buy(quantity: "-1")).field == "body.quantity")
        #expect(try await store.failure(buy(quantity: "1e3")).field == "body.quantity")
        #expect(try await store.failure(buy(quantity: "0.0000000000000000001")).field == "body.quantity")
        #expect(try await store.failure(buy(price: "0")).field == "body.price")
        #expect(try await store.failure(buy(fee: "-1")).field == "body.fee")
        #expect(try await store.failure(buy(fee: "0.001")).field == "body.fee")
        #expect(try await store.failure(buy(date: "2027-01-01")).field == "body.date")
        // No rate known and none given.
        #expect(try await store.failure(buy(rate: nil)).field == "body.rate")
        #expect(try await store.failure(TradeSellRequest(accountId: account.id, assetId: asset.id, quantity: "1", price: "10", date: "2026-01-10", rate: "1")).field == "body.quantity")
        #expect(try await store.failure(AssetCreateRequest(symbol: "acme", assetType: .stock, quoteCurrency: "USD")).code == .conflict)
        #expect(try await store.failure(AssetCreateRequest(symbol: "A B", assetType: .stock, quoteCurrency: "USD")).field == "body.symbol")
    }

    @Test func holdingsAreValuedAtTheLatestPriceWithStalenessSaid() async throws {
        let ledger = try await Self.example(.fifo)
        let store = ledger.store
        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.95"))
        _ = try await store.call(PriceSetRequest(assetId: ledger.asset.id, price: "150"))
        let holding = try #require(try await store.call(HoldingsRequest()).holdings.first)
        // 7 units: lot 1 keeps 2 (200.20 USD, 180.18 EUR), lot 2 is whole (601.00 USD, 570.95 EUR).
        #expect(holding.quantity == "7" && holding.cost == "801.20" && holding.costBase == "751.13")
        #expect(holding.value == "1050.00" && holding.valueBase == "997.50")
        // currency effect: round(801.20 × 0.95) − 751.13 = 761.14 − 751.13 = 10.01
        #expect(holding.unrealised == UnrealisedGain(total: "246.37", priceEffect: "236.36", currencyEffect: "10.01"))
        #expect(holding.price?.stale == false && holding.warnings.isEmpty)
        // Net worth counts the account (it says so by default), and leaves it out when it does not.
        let balance = try await store.call(BalanceReportRequest())
        #expect(balance.investments.map(\.baseValue) == ["997.50"] && balance.total == "997.50" && balance.unvaluedInvestments.isEmpty)
        _ = try await store.call(InvestAccountUpdateRequest(id: ledger.account.id, includeInNetWorth: false))
        #expect(try await store.call(BalanceReportRequest()).total == "0.00")
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T14:00:00Z")!.timeIntervalSinceNow))
        let later = try #require(try await store.call(HoldingsRequest()).holdings.first)
        #expect(later.price?.stale == true && later.warnings.count == 1)
        #expect(try await store.call(PriceListRequest()).prices.first?.stale == true)
        #expect(try await store.call(PriceWantedRequest()).assets.map(\.symbol) == ["ACME"])
    }

    @Test func fetchedPricesAreStoredOnceAndPurgedToOnePerDay() async throws {
        let store = try await Self.store()
        let asset = try await store.call(AssetCreateRequest(symbol: "BTC", assetType: .crypto, quoteCurrency: "USD", providerId: "bitcoin", watched: true))
        let batch = PriceRecordRequest(snapshots: [
            PriceSnapshotInput(assetId: asset.id, price: "60000", currency: "USD", source: "coingecko", asOf: "2026-11-01T10:00:00.000Z", confidence: .fetched),
            PriceSnapshotInput(assetId: asset.id, price: "61000", currency: "USD", source: "coingecko", asOf: "2026-11-01T22:00:00.000Z", confidence: .fetched),
            PriceSnapshotInput(assetId: asset.id, price: "62000", currency: "USD", source: "coingecko", asOf: "2026-11-15T10:00:00.000Z", confidence: .fetched),
        ])
        #expect(try await store.call(batch) == PriceRecordReply(stored: 3, duplicates: 0))
        #expect(try await store.call(batch, key: UUID().uuidString) == PriceRecordReply(stored: 0, duplicates: 3))
        var bad = batch
        bad.snapshots[0].price = "-5"
        #expect(try await store.failure(bad).field == "body.snapshots[0].price")
        bad.snapshots[0].price = "abc"
        #expect(try await store.failure(bad).field == "body.snapshots[0].price")
        bad.snapshots[0].price = "1"
        bad.snapshots[0].currency = "EUR"
        #expect(try await store.failure(bad).field == "body.snapshots[0].currency")
        #expect(try await store.call(PricePurgeRequest()) == PricePurgeReply(removed: 1, kept: 2))
        #expect(try await store.call(PriceHistoryRequest(assetId: asset.id, since: "2026-10-01")).prices.map(\.price) == ["61000", "62000"])
    }

    @Test func driftRaisesOneAlertPerEpisode() async throws {
        let store = try await Self.store()
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker"))
        let core = try await store.call(AssetCreateRequest(symbol: "CORE", assetType: .etf, quoteCurrency: "EUR", allocationGroup: "core"))
        let spec = try await store.call(AssetCreateRequest(symbol: "SPEC", assetType: .crypto, quoteCurrency: "EUR", allocationGroup: "speculative"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: core.id, quantity: "80", price: "10", date: "2026-11-01"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: spec.id, quantity: "20", price: "10", date: "2026-11-01"))
        _ = try await store.call(PriceSetRequest(assetId: core.id, price: "10"))
        _ = try await store.call(PriceSetRequest(assetId: spec.id, price: "10"))
        _ = try await store.call(AllocationSetRequest(dimension: .group, key: "core", percent: "80"))
        _ = try await store.call(AllocationSetRequest(dimension: .group, key: "speculative", percent: "20"))
        #expect(try await store.call(AllocationCheckRequest()).raised.isEmpty)
        // Speculative doubles: 400 of 1200 is 33.33 %, 13.33 points over.
        _ = try await store.call(PriceSetRequest(assetId: spec.id, price: "20"))
        let shown = try await store.call(AllocationShowRequest())
        #expect(shown.lines.map(\.actual) == ["66.67", "33.33"] && shown.lines.map(\.drift) == ["-13.33", "13.33"])
        let first = try await store.call(AllocationCheckRequest())
        #expect(first.raised.count == 2 && first.drifting == ["group:core", "group:speculative"])
        #expect(try await store.call(AllocationCheckRequest()).raised.isEmpty)
        #expect(try await store.call(AlertListRequest()).alerts.filter { $0.kind == .allocationDrift }.count == 2)
        #expect(try await store.failure(AllocationSetRequest(dimension: .group, key: "more", percent: "1")).field == "body.percent")
        // A key long enough to overflow the alert's key is refused up front, naming it.
        #expect(try await store.failure(AllocationSetRequest(dimension: .group, key: String(repeating: "g", count: 61), percent: "0")).field == "body.key")
        #expect(try await store.failure(AssetUpdateRequest(id: spec.id, allocationGroup: String(repeating: "g", count: 61))).field == "body.allocationGroup")
        // Groups compare ignoring case: "Core" is the core target's group.
        _ = try await store.call(AssetUpdateRequest(id: core.id, allocationGroup: "Core"))
        #expect(try await store.call(AllocationShowRequest()).lines.map(\.key) == ["Core", "speculative"])
    }

    @Test func aBrokerFileIsAllOrNothingAndSkipsWhatIsAlreadyThere() async throws {
        let store = try await Self.store()
        let wallet = try await store.call(WalletCreateRequest(name: "Euros", currency: "EUR"))
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker"))
        _ = try await store.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "EUR"))
        let lines = [
            TradeImportLine(line: 2, kind: .buy, symbol: "ACME", date: "2026-01-10", quantity: "10", price: "100", fee: "1"),
            TradeImportLine(line: 3, kind: .buy, symbol: "acme", date: "2026-01-10", quantity: "10", price: "100", fee: "1"),
            TradeImportLine(line: 4, kind: .sell, symbol: "ACME", date: "2026-02-10", quantity: "5", price: "110", fee: "1"),
            TradeImportLine(line: 5, kind: .dividend, symbol: "ACME", date: "2026-03-01", amount: "4.20"),
        ]
        let dry = try await store.call(TradeImportRequest(accountId: account.id, walletId: wallet.id, lines: lines, dryRun: true))
        #expect(dry == TradeImportReply(imported: 4, duplicates: [], dryRun: true, tradeIds: []))
        #expect(try store.count("trades") == 0)
        // Equal lines in one file are two fills; the same file again adds nothing.
        let first = try await store.call(TradeImportRequest(accountId: account.id, walletId: wallet.id, lines: lines))
        #expect(first.imported == 4 && first.duplicates.isEmpty)
        let again = try await store.call(TradeImportRequest(accountId: account.id, walletId: wallet.id, lines: lines))
        #expect(again.imported == 0 && again.duplicates == [2, 3, 4, 5])
        #expect(try await store.call(HoldingsRequest()).holdings.first?.quantity == "15")
        // One bad line refuses the file, naming the line; nothing of it is written.
        var bad = lines.map { line in var moved = line; moved.date = "2026-04-0\(line.line)"; return moved }
        bad[2].price = "-3"
        let refusal = try await store.failure(TradeImportRequest(accountId: account.id, walletId: wallet.id, lines: bad))
        #expect(refusal.field == "body.lines[2].price" && refusal.message.hasPrefix("line 4: "), "\(refusal)")
        #expect(try await store.failure(TradeImportRequest(accountId: account.id, lines: [bad[0], TradeImportLine(line: 9, kind: .buy, symbol: "NOPE", date: "2026-04-01", quantity: "1", price: "1")])).field == "body.lines[1].symbol")
        #expect(try store.count("trades") == 4)
    }
}
