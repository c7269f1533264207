import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addInvestmentRoutes() {
        write(InvestAccountCreateRequest.self, InvestAccountHandlers.create)
        read(InvestAccountListRequest.self, InvestAccountHandlers.list)
        write(InvestAccountUpdateRequest.self, InvestAccountHandlers.update)
        write(InvestAccountArchiveRequest.self, InvestAccountHandlers.archive)
        write(AssetCreateRequest.self, AssetHandlers.create)
        read(AssetListRequest.self, AssetHandlers.list)
        write(AssetUpdateRequest.self, AssetHandlers.update)
        write(TradeBuyRequest.self, TradeHandlers.buy)
        write(TradeSellRequest.self, TradeHandlers.sell)
        write(TradeIncomeRequest.self, TradeHandlers.income)
        write(TradeSplitRequest.self, TradeHandlers.split)
        write(TradeTransferRequest.self, TradeHandlers.transfer)
        write(TradeDeleteRequest.self, TradeHandlers.delete)
        read(TradeListRequest.self, TradeHandlers.list)
        write(TradeImportRequest.self, TradeImportHandler.importTrades)
        read(HoldingsRequest.self, HoldingsReader.read)
        read(GainsRequest.self, GainsReader.read)
        write(PriceSetRequest.self, PriceHandlers.set)
        write(PriceRecordRequest.self, PriceHandlers.record)
        read(PriceListRequest.self, PriceHandlers.list)
        read(PriceHistoryRequest.self, PriceHandlers.history)
        write(PricePurgeRequest.self, PriceHandlers.purge)
        read(PriceWantedRequest.self, PriceHandlers.wanted)
        write(AllocationSetRequest.self, AllocationHandlers.set)
        read(AllocationShowRequest.self, AllocationHandlers.show)
        write(AllocationCheckRequest.self, AllocationHandlers.check)
        write(InvestRestoreRequest.self, InvestRestoreHandler.restore)
    }
}
