import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addRecurringRoutes() {
        write(RecurringCreateRequest.self, RecurringHandlers.create)
        read(RecurringListRequest.self, RecurringHandlers.list)
        write(RecurringPauseRequest.self, RecurringHandlers.pause)
        write(RecurringDeleteRequest.self, RecurringHandlers.delete)
        write(RecurringPostRequest.self, RecurringHandlers.post)
    }
}
