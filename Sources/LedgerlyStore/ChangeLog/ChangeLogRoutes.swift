import LedgerlyProtocol

extension StoreRouteTable {
    /// `events.since`: how subscribers catch up on the change log.
    mutating func addChangeLogRoutes() {
        read(EventsSinceRequest.self, EventHandlers.since)
    }
}
