import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addConversionRoutes() {
        write(ConvertRequest.self, ConversionHandlers.convert)
        read(ConversionHistoryRequest.self, ConversionHandlers.history)
    }
}
