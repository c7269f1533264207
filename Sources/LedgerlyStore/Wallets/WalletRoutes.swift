import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addWalletRoutes() {
        write(WalletCreateRequest.self, WalletHandlers.create)
        read(WalletListRequest.self, WalletHandlers.list)
        read(WalletGetRequest.self, WalletHandlers.get)
        write(WalletUpdateRequest.self, WalletHandlers.update)
        write(WalletArchiveRequest.self, WalletHandlers.archive)
    }
}
