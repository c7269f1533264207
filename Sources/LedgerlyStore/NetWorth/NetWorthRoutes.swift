import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addNetWorthRoutes() {
        write(ManualAssetCreateRequest.self, ManualAssetHandlers.create)
        read(ManualAssetListRequest.self, ManualAssetHandlers.list)
        read(ManualAssetGetRequest.self, ManualAssetHandlers.get)
        write(ManualAssetUpdateRequest.self, ManualAssetHandlers.update)
        write(ManualAssetRevalueRequest.self, ManualAssetHandlers.revalue)
        write(ManualAssetArchiveRequest.self, ManualAssetHandlers.archive)
        write(LiabilityCreateRequest.self, LiabilityHandlers.create)
        read(LiabilityListRequest.self, LiabilityHandlers.list)
        read(LiabilityGetRequest.self, LiabilityHandlers.get)
        write(LiabilityUpdateRequest.self, LiabilityHandlers.update)
        write(LiabilityRevalueRequest.self, LiabilityHandlers.revalue)
        write(LiabilityPayRequest.self, LiabilityHandlers.pay)
        write(LiabilityArchiveRequest.self, LiabilityHandlers.archive)
        read(NetWorthRequest.self, NetWorthSnapshotHandlers.get)
        write(NetWorthSnapshotTakeRequest.self, NetWorthSnapshotHandlers.take)
        read(NetWorthSnapshotListRequest.self, NetWorthSnapshotHandlers.list)
        write(NetWorthRestoreRequest.self, NetWorthRestoreHandler.restore)
    }
}
