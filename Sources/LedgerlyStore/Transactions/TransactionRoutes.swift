import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addTransactionRoutes() {
        write(TransactionCreateRequest.self, TransactionHandlers.create)
        read(TransactionGetRequest.self, TransactionHandlers.get)
        readEncoded(TransactionListRequest.self) { request, db in TransactionListCoding.encode(try TransactionHandlers.list(request, db)) }
        write(TransactionUpdateRequest.self, TransactionHandlers.update)
        write(TransactionDeleteRequest.self, TransactionHandlers.delete)
        write(TransferCreateRequest.self, TransactionHandlers.transfer)
    }
}
