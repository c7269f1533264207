import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addTransactionRoutes() {
        write(TransactionCreateRequest.self, TransactionHandlers.create)
        read(TransactionGetRequest.self, TransactionHandlers.get)
        read(TransactionListRequest.self, TransactionHandlers.list)
        write(TransactionUpdateRequest.self, TransactionHandlers.update)
        write(TransactionDeleteRequest.self, TransactionHandlers.delete)
        write(TransferCreateRequest.self, TransactionHandlers.transfer)
    }
}
