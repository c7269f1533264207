import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addTagRoutes() {
        write(TagCreateRequest.self, TagHandlers.create)
        read(TagListRequest.self, TagHandlers.list)
    }
}
