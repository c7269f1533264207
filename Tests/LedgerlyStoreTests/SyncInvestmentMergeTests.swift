import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Investments through sync, store to store (`SyncMergeTests.Hub` plays the hub): accounts,
/// securities, trades with their cash, typed prices and allocation targets reach every device,
/// and a merged history the lots cannot take keeps every trade, the same one unapplied on each.
@Suite struct SyncInvestmentMergeTests {
    typealias Hub = SyncMergeTests.Hub

    /// What every device must agree on: trades (local ids out), units and costs held, gains,
    /// typed prices, targets, the bank's balance.
    static func portfolio(_ store: Store) async throws -> String {
        struct State: Encodable {
            let accounts: [String]
            let securities: [String]
            let trades: [String]
            let holdings: [String]
            let gains: [GainsTotal]
            let prices: [String]
            let targets: [String]
            let balances: [String]
        }
        let trades = try await store.call(TradeListRequest()).trades
        let holdings = try await store.call(HoldingsRequest()).holdings
        let prices = try await store.call(PriceListRequest()).prices
        let targets = try await store.call(AllocationShowRequest(dimension: .group)).lines
        return try SyncFields.text(State(
            accounts: try await store.call(InvestAccountListRequest(includeArchived: true)).accounts.map { "\($0.name) \($0.baseCurrency) \($0.costBasisMethod)" },
            securities: try await store.call(AssetListRequest()).assets.map { "\($0.symbol) \($0.quoteCurrency) \($0.name ?? "")" },
            trades: trades.map { "\($0.date) \($0.kind) \($0.symbol) \($0.quantity ?? "") \($0.amountBase ?? "") \($0.cash?.amount ?? "-") \($0.realised?.gain ?? "") \($0.unapplied == nil ? "" : "unapplied")" },
            holdings: holdings.map { "\($0.symbol) \($0.quantity) \($0.cost) \($0.costBase)" },
            gains: try await store.call(GainsRequest(year: 2026)).totals,
            prices: prices.map { "\($0.symbol) \($0.price) \($0.asOf)" },
            targets: targets.map { "\($0.key) \($0.target ?? "")" },
            balances: try await store.call(WalletListRequest()).wallets.map { "\($0.name) \($0.balance)" }))
    }

    /// A's ledger with an account "Broker", a fund VWCE and a buy of 10 at 100, pushed, and B
    /// joined to it.
    static func fundBoughtAndJoined() async throws -> (a: Store, b: Store, hub: Hub, ids: [String: Int64], broker: Int64, fund: Int64, buy: Int64) {
        let (a, ids) = try await SyncMergeTests.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let broker = try await a.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR")).id
        let fund = try await a.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, quoteCurrency: "EUR", provider: .manual)).id
        let buy = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "10", price: "100", date: "2026-11-02")).id
        try await hub.push(a)
        return (a, try await hub.join(), hub, ids, broker, fund, buy)
    }

    @Test func investmentsConvergeAndAnOversoldSaleIsKeptUnapplied() async throws {
        let (a, ids) = try await SyncMergeTests.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let broker = try await a.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR")).id
        let fund = try await a.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, name: "All-World", quoteCurrency: "EUR", provider: .manual, allocationGroup: "core")).id
        _ = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "10", price: "100", fee: "1", date: "2026-11-02", walletId: ids["bank"]))
        _ = try await a.call(PriceSetRequest(assetId: fund, price: "104.5", asOf: "2026-11-03T12:00:00Z"))
        _ = try await a.call(AllocationSetRequest(dimension: .group, key: "core", percent: "70"))
        try await hub.push(a)
        let b = try await hub.join()
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
        #expect(try await b.call(TradeListRequest()).trades.first?.cash?.amount == "1001.00")

        // Apart: each sells the whole holding on one day (B's later), each adds the same new
        // security, and each an account of one name.
        _ = try await a.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "10", price: "110", date: "2026-11-10", walletId: ids["bank"]))
        try await Task.sleep(for: .milliseconds(5))
        let saleB = try await b.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "10", price: "120", date: "2026-11-10", walletId: ids["bank"])).id
        _ = try await a.call(AssetCreateRequest(symbol: "AAPL", assetType: .stock, quoteCurrency: "USD"))
        _ = try await b.call(AssetCreateRequest(symbol: "aapl", assetType: .stock, name: "Apple", quoteCurrency: "USD"))
        _ = try await a.call(InvestAccountCreateRequest(name: "Pension", baseCurrency: "EUR"))
        _ = try await b.call(InvestAccountCreateRequest(name: "pension", baseCurrency: "EUR"))
        let notices = try await hub.meet([a, b])
        #expect(notices.contains { $0.contains("marked unapplied") }, "\(notices)")

        let portfolio = try await Self.portfolio(a)
        #expect(try await Self.portfolio(b) == portfolio, "\(portfolio)")
        for store in [a, b] {
            let trades = try await store.call(TradeListRequest(assetId: fund)).trades
            #expect(trades.count == 3)
            // The sale made first counts; the later one is kept, with both its cash and the reason.
            #expect(trades.filter { $0.unapplied != nil }.map { $0.price } == ["120"], "\(trades)")
            #expect(trades.filter { $0.kind == .sell && $0.unapplied == nil }.map(\.realised?.gain) == ["99.00"])
            #expect(try await store.call(AssetListRequest()).assets.count == 2)
            let accounts = try await store.call(InvestAccountListRequest()).accounts.map(\.name).sorted()
            #expect(accounts == ["Broker", "Pension", "pension (2)"] || accounts == ["Broker", "Pension (2)", "pension"], "\(accounts)")
        }
        // 1000 + 2500 - 30 - 9 - 100 (filled) - 1001 (buy) + 1100 + 1200 (both sales' cash).
        #expect(portfolio.contains("Bank 4660.00"), "\(portfolio)")

        // B deletes A's sale: B's own now counts, on every device; a device joining now agrees.
        let saleA = try #require(try await b.call(TradeListRequest(assetId: fund)).trades.first { $0.kind == .sell && $0.id != saleB })
        _ = try await b.call(TradeDeleteRequest(id: saleA.id))
        try await hub.meet([a, b])
        for store in [a, b] {
            let sales = try await store.call(TradeListRequest(assetId: fund)).trades.filter { $0.kind == .sell }
            #expect(sales.map(\.price) == ["120"] && sales.allSatisfy { $0.unapplied == nil }, "\(sales)")
        }
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
        let c = try await hub.join()
        #expect(try await Self.portfolio(c) == Self.portfolio(a))
        // Nothing more to send: what each applied is not sent back.
        let before = hub.messages.count
        try await hub.meet([a, b, c])
        #expect(hub.messages.count == before)
    }

    /// A trade left out counts again once the lots can take it (a buy recorded before it), and a
    /// local change that would leave out a trade that counts is still refused.
    @Test func anUnappliedSaleCountsOnceTheLotsCanTakeIt() async throws {
        let (a, b, hub, _, broker, fund, buy) = try await Self.fundBoughtAndJoined()
        _ = try await a.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "6", price: "110", date: "2026-11-10"))
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "6", price: "120", date: "2026-11-10"))
        try await hub.meet([a, b])
        let unapplied = { (store: Store) async throws -> [String?] in
            try await store.call(TradeListRequest(assetId: fund)).trades.filter { $0.unapplied != nil }.map(\.price)
        }
        #expect(try await unapplied(a) == ["120"])
        let reason = try #require(try await a.call(TradeListRequest(assetId: fund)).trades.compactMap(\.unapplied).first)
        #expect(reason.contains("needs 6 units but the account holds 4"), "\(reason)")

        // Deleting the buy would leave out the sale that counts: refused, as without sync.
        let refusal = try await a.failure(TradeDeleteRequest(id: buy))
        #expect(refusal.code == .conflict, "\(refusal)")
        // A buy dated before both sales: the lots take both now, on every device.
        _ = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "2", price: "100", date: "2026-11-03"))
        try await hub.meet([a, b])
        for store in [a, b] {
            #expect(try await unapplied(store) == [])
            #expect(try await store.call(HoldingsRequest()).holdings.isEmpty, "12 bought, 12 sold")
        }
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
    }

    /// Income into a wallet in another currency than the security's arrives; a sale naming a lot
    /// whose buy another device deleted meanwhile is kept unapplied on both, with its cash; a
    /// device that scans again (enabling sync once more) still names the gone lot.
    @Test func foreignIncomeAndASaleOfALotDeletedElsewhereArrive() async throws {
        let (a, ids) = try await SyncMergeTests.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let dollars = try await a.call(WalletCreateRequest(name: "Dollars", currency: "USD")).id
        let broker = try await a.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR")).id
        let fund = try await a.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, quoteCurrency: "EUR", provider: .manual)).id
        let buy = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "10", price: "100", date: "2026-11-02")).id
        try await hub.push(a)
        let b = try await hub.join()

        // Apart: A deletes the buy and is paid a dividend in dollars; B sells that very lot.
        _ = try await a.call(TradeDeleteRequest(id: buy))
        _ = try await a.call(TradeIncomeRequest(kind: .dividend, accountId: broker, assetId: fund, amount: "4.20", date: "2026-11-05", walletId: dollars, rate: "0.9"))
        _ = try await b.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "10", price: "110", date: "2026-11-10", walletId: ids["bank"],
                                              lots: [LotSelection(lotId: buy, quantity: "10")]))
        let notices = try await hub.meet([a, b])
        #expect(notices.contains { $0.contains("marked unapplied") }, "\(notices)")
        for store in [a, b] {
            let trades = try await store.call(TradeListRequest(assetId: fund)).trades
            #expect(trades.map(\.kind) == [.dividend, .sell], "\(trades)")
            #expect(trades.first { $0.kind == .sell }?.unapplied != nil)
            #expect(trades.first { $0.kind == .dividend }?.currency == "USD")
            #expect(try await store.call(WalletListRequest()).wallets.first { $0.id == dollars }?.balance == "4.20")
        }
        #expect(try await Self.portfolio(b) == Self.portfolio(a))

        // B scans again: the sale still names the buy, gone, by the id it was sent with.
        let device = try #require(try await b.call(SyncStatusRequest()).deviceId)
        _ = try await b.call(SyncDisableRequest())
        _ = try await b.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: device, hub: "h", mode: .create))
        let sent = hub.messages.count
        try await hub.push(b)
        #expect(hub.messages.count == sent)
    }

    /// A trade arriving with the id of a buy deleted here gets another id: the sale left out for
    /// that buy still names it, and would otherwise take the newcomer's units in silence.
    @Test func aDeletedBuysIdIsNotGivenToANewTrade() async throws {
        let (a, b, hub, ids, broker, fund, buy) = try await Self.fundBoughtAndJoined()
        _ = try await a.call(TradeDeleteRequest(id: buy))
        _ = try await b.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "10", price: "110", date: "2026-11-10", walletId: ids["bank"],
                                              lots: [LotSelection(lotId: buy, quantity: "10")]))
        try await hub.meet([a, b])
        // A device whose own first trade is numbered like the deleted buy sends a buy.
        let account = try #require(hub.messages.first { $0.message.entity == "invest_account" }?.message.gid)
        let other = SyncMergeTests.device()
        let clock = "000001795262401000.000000.\(other)"
        let fields: [String: JSONValue] = [
            "kind": .string("buy"), "account": .string(account), "security": .string("security:VWCE"), "date": .string("2026-11-05"), "quantity": .string("10"),
            "price": .string("100"), "fee": .string("0.00"), "amount": .string("1000.00"), "currency": .string("EUR"), "rate": .string("1"),
            "amountBase": .string("1000.00"), "baseCurrency": .string("EUR"), "createdAt": .string("2026-11-05T09:00:00.000Z"), "order": .number(1),
        ]
        let arriving = SyncMessage(entity: "trade", gid: "7d2c9a41-5b8e-4f10-9c3d-2e6f8a1b4c57", hlc: clock, device: other, localId: buy, deleted: false,
                                   fields: fields, clocks: fields.mapValues { _ in clock })
        let after = try await b.call(SyncStatusRequest()).pulledSeq
        _ = try await b.call(SyncApplyRequest(messages: [SyncIncoming(hubSeq: after + 1, message: arriving)]))
        let trades = try await b.call(TradeListRequest(assetId: fund)).trades
        #expect(trades.first { $0.kind == .buy }.map { $0.id != buy } == true, "\(trades)")
        #expect(trades.first { $0.kind == .sell }?.unapplied != nil, "the sale still names the deleted buy")
    }

    /// A broker file's lines share one recording time: they replay in the order of the device
    /// that imported them, not in the local ids another device gave them (here B, whose next id
    /// is taken, numbers the sale before the buy).
    @Test func importedLinesReplayInTheImportingDevicesOrder() async throws {
        let (a, _) = try await SyncMergeTests.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let broker = try await a.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR")).id
        _ = try await a.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, quoteCurrency: "EUR", provider: .manual))
        let other = try await a.call(AssetCreateRequest(symbol: "AGGH", assetType: .etf, quoteCurrency: "EUR", provider: .manual)).id
        try await hub.push(a)
        let b = try await hub.join()
        // B takes trade ids 1 and 2 and frees 2.
        _ = try await b.call(TradeBuyRequest(accountId: broker, assetId: other, quantity: "1", price: "5", date: "2026-11-01"))
        let freed = try await b.call(TradeBuyRequest(accountId: broker, assetId: other, quantity: "1", price: "5", date: "2026-11-01")).id
        _ = try await b.call(TradeDeleteRequest(id: freed))
        // A imports a buy and a sale of one day (ids 1 and 2 on A).
        let imported = try await a.call(TradeImportRequest(accountId: broker, lines: [
            TradeImportLine(line: 1, kind: .buy, symbol: "VWCE", date: "2026-11-03", quantity: "10", price: "100"),
            TradeImportLine(line: 2, kind: .sell, symbol: "VWCE", date: "2026-11-03", quantity: "10", price: "101"),
        ]))
        #expect(imported.imported == 2)
        try await hub.meet([a, b])
        for store in [a, b] {
            let trades = try await store.call(TradeListRequest(assetId: try await store.call(AssetListRequest()).assets.first { $0.symbol == "VWCE" }!.id)).trades
            #expect(trades.map(\.kind) == [.buy, .sell] && trades.allSatisfy { $0.unapplied == nil }, "\(trades)")
        }
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
    }

    /// A sale naming its lot names it by the buying trade's global id, so the sale takes the same
    /// lot on a device that numbered the buys differently; a split and a transfer arrive too.
    @Test func namedLotsSplitsAndTransfersArriveAsRecorded() async throws {
        let (a, ids) = try await SyncMergeTests.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let broker = try await a.call(InvestAccountCreateRequest(name: "Broker", baseCurrency: "EUR")).id
        let isa = try await a.call(InvestAccountCreateRequest(name: "ISA", baseCurrency: "EUR", costBasisMethod: .lifo)).id
        let fund = try await a.call(AssetCreateRequest(symbol: "VWCE", assetType: .etf, quoteCurrency: "EUR", provider: .manual)).id
        _ = try await a.call(PriceSetRequest(assetId: fund, price: "61.25", asOf: "2026-11-05T16:00:00Z"))
        let first = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "5", price: "90", date: "2026-11-01")).id
        _ = try await a.call(TradeBuyRequest(accountId: broker, assetId: fund, quantity: "5", price: "100", date: "2026-11-02"))
        _ = try await a.call(TradeSplitRequest(assetId: fund, ratio: "2:1", date: "2026-11-03"))
        _ = try await a.call(TradeSellRequest(accountId: broker, assetId: fund, quantity: "4", price: "60", date: "2026-11-04", walletId: ids["bank"],
                                              lots: [LotSelection(lotId: first, quantity: "4")]))
        _ = try await a.call(TradeTransferRequest(fromAccountId: broker, toAccountId: isa, assetId: fund, quantity: "6", date: "2026-11-05"))
        try await hub.push(a)
        let b = try await hub.join()
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
        let sale = try #require(try await b.call(TradeListRequest(assetId: fund)).trades.first { $0.kind == .sell })
        #expect(sale.lots?.map(\.lotId) == [first] && sale.realised?.gain == "60.00", "\(sale)")
        // The method changed on B is a replay on A.
        _ = try await b.call(InvestAccountUpdateRequest(id: broker, costBasisMethod: .lifo))
        try await hub.meet([a, b])
        #expect(try await a.call(InvestAccountListRequest()).accounts.first { $0.id == broker }?.costBasisMethod == .lifo)
        #expect(try await Self.portfolio(b) == Self.portfolio(a))
    }
}
