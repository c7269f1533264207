import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addReportRoutes() {
        read(BalanceReportRequest.self, BalanceReporter.report)
        read(CategoryReportRequest.self, CategoryReporter.report)
        read(CashFlowReportRequest.self, CategoryReporter.cashFlow)
        read(PayeeReportRequest.self, PayeeReporter.report)
    }
}
