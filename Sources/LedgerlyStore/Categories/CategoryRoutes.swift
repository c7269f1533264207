import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addCategoryRoutes() {
        write(CategoryCreateRequest.self, CategoryHandlers.create)
        read(CategoryListRequest.self, CategoryHandlers.list)
        read(CategoryGetRequest.self, CategoryHandlers.get)
        write(CategoryUpdateRequest.self, CategoryHandlers.update)
    }
}
