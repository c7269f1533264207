import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// The ledger the alerts tests start from: the store and the alerts service running, setup
/// done, a EUR wallet of 1,000, a Food expense category and a budget of 100 on it, so one
/// expense of 50 or more crosses a threshold the alerts service must report.
public struct BudgetedLedger {
    public let client: RequestClient
    public let wallet: WalletRecord
    public let food: CategoryRecord
    public let budget: BudgetRecord

    public init(_ harness: ServiceHarness) throws {
        try harness.start(.store)
        try harness.start(.alerts)
        try harness.setUp()
        client = harness.client()
        wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR", startingBalance: "1000"))
        food = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
        budget = try client.call(BudgetSetRequest(categoryId: food.id, limit: "100"))
    }
}
