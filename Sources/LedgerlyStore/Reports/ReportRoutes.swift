import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addReportRoutes() {
        read(BalanceReportRequest.self, BalanceReporter.report)
        // Written by hand, the same bytes as `MessageCoding` (D233).
        readEncoded(CategoryReportRequest.self) { request, db in CategoryReportCoding.encode(try CategoryReporter.report(request, db)) }
        read(CashFlowReportRequest.self, CategoryReporter.cashFlow)
        read(PayeeReportRequest.self, PayeeReporter.report)
    }
}
