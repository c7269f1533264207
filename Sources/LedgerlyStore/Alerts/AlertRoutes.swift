import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addAlertRoutes() {
        write(AlertRaiseRequest.self, AlertHandlers.raise)
        read(AlertListRequest.self, AlertHandlers.list)
    }
}
