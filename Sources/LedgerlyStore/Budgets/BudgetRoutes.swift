import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addBudgetRoutes() {
        write(BudgetSetRequest.self, BudgetHandlers.set)
        read(BudgetListRequest.self, BudgetHandlers.list)
        write(BudgetDeleteRequest.self, BudgetHandlers.delete)
        read(BudgetStatusRequest.self, BudgetEvaluator.status)
    }
}
