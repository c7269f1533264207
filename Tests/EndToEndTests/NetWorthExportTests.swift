import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// `ledgerly export json` carries manual assets, liabilities and the monthly snapshots, and
    /// `ledgerly import json` restores them under their ids with the same histories, the same
    /// payments (still no spending) and the snapshots exactly as taken (issue 15).
    @Suite struct NetWorthExportTests {
        @Test func netWorthSurvivesAnExportAndRestore() throws {
            let original = try ServiceHarness()
            try original.start(.store)
            try original.setUp()
            let client = original.client()
            let checking = try client.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "5000"))
            let flat = try client.call(ManualAssetCreateRequest(name: "Flat", value: "300000", valuedOn: "2026-01-15"))
            _ = try client.call(ManualAssetRevalueRequest(id: flat.id, value: "310000", date: "2026-06-30", notes: "Bank valuation"))
            _ = try client.call(ManualAssetCreateRequest(name: "Watches", value: "12000", currency: "CHF", valuedOn: "2026-02-01", volatile: true))
            let car = try client.call(ManualAssetCreateRequest(name: "Old car", value: "4500", valuedOn: "2026-01-20"))
            _ = try client.call(ManualAssetRevalueRequest(id: car.id, value: "0", date: "2026-09-12", notes: "Sold"))
            _ = try client.call(ManualAssetArchiveRequest(id: car.id))
            let mortgage = try client.call(LiabilityCreateRequest(name: "Mortgage", liabilityType: .mortgage, balance: "250000", balanceOn: "2026-01-10", interestRate: "3.25"))
            _ = try client.call(LiabilityPayRequest(id: mortgage.id, walletId: checking.id, amount: "1200", date: "2026-02-01", notes: "February"))
            _ = try client.call(LiabilityRevalueRequest(id: mortgage.id, balance: "249100", date: "2026-03-31", notes: "Statement"))
            let loan = try client.call(LiabilityCreateRequest(name: "Car loan", balance: "5000", currency: "USD", balanceOn: "2026-01-05"))
            _ = try client.call(LiabilityPayRequest(id: loan.id, walletId: checking.id, amount: "500", walletAmount: "460.00", date: "2026-02-15"))
            _ = try client.call(NetWorthSnapshotTakeRequest(month: "2026-09"))
            _ = try client.call(NetWorthSnapshotTakeRequest(month: "2026-10"))

            let file = original.home.root.appendingPathComponent("export.json")
            let exported = try original.cli("export", "json", "-o", file.path)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("3 manual assets, 2 liabilities and 2 net-worth snapshots"), "\(exported.stdout)")

            // The journal: the accounts hold what Ledgerly says, the payments are no expense.
            let journal = original.home.root.appendingPathComponent("ledger.journal")
            let written = try original.cli("export", "journal", "-o", journal.path)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try PeerTool.journalFailures(journal.path) == [])
            let beancount = original.home.root.appendingPathComponent("ledger.beancount")
            let beanWritten = try original.cli("export", "beancount", "-o", beancount.path)
            #expect(beanWritten.status == 0, "\(beanWritten.stderr)")
            #expect(try PeerTool.beancountFailure(beancount.path) == nil)
            let balances = try InvestmentExportTests.hledger(["-f", journal.path, "--strict", "bal", "-N", "--flat", "assets", "liabilities", "expenses"])
            #expect(balances.contains("310000.00 EUR  assets:manual:Flat"), "\(balances)")
            #expect(balances.contains("12000.00 CHF  assets:manual:Watches"), "\(balances)")
            #expect(balances.contains("3340.00 EUR  assets:Checking"), "\(balances)")  // 5000 − 1200 − 460
            #expect(balances.contains("-249100.00 EUR  liabilities:Mortgage"), "\(balances)")
            #expect(balances.contains("-4500.00 USD  liabilities:Car loan"), "\(balances)")
            #expect(!balances.contains("expenses"), "\(balances)")
            let march = try InvestmentExportTests.hledger(["-f", journal.path, "bal", "-N", "--flat", "-e", "2026-03-31", "liabilities:Mortgage", "assets:manual:Flat"])
            #expect(march.contains("-248800.00 EUR  liabilities:Mortgage") && march.contains("300000.00 EUR  assets:manual:Flat"), "\(march)")

            let copy = try ServiceHarness()
            try copy.start(.store)
            try copy.setUp()
            let restored = try copy.cli("import", "json", file.path)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains("3 manual assets, 2 liabilities, 2 net-worth snapshots"), "\(restored.stdout)")
            let other = copy.client()
            for asset in try client.call(ManualAssetListRequest(includeArchived: true)).assets {
                #expect(try other.call(ManualAssetGetRequest(id: asset.id)) == (try client.call(ManualAssetGetRequest(id: asset.id))))
            }
            #expect(try other.call(ManualAssetListRequest(includeArchived: true)) == (try client.call(ManualAssetListRequest(includeArchived: true))))
            for liability in try client.call(LiabilityListRequest(includeArchived: true)).liabilities {
                #expect(try other.call(LiabilityGetRequest(id: liability.id)) == (try client.call(LiabilityGetRequest(id: liability.id))))
            }
            let snapshots = try client.call(NetWorthSnapshotListRequest(includeItems: true))
            #expect(snapshots.snapshots.map(\.month) == ["2026-09", "2026-10"])
            #expect(try other.call(NetWorthSnapshotListRequest(includeItems: true)) == snapshots)
            #expect(try other.call(NetWorthRequest(at: "2026-10-31")) == (try client.call(NetWorthRequest(at: "2026-10-31"))))
            // The payments are still payments: no spending, and not deleted alone.
            #expect(try other.call(CashFlowReportRequest(from: "2026-01", to: "2026-10")) == (try client.call(CashFlowReportRequest(from: "2026-01", to: "2026-10"))))
            #expect(try other.call(WalletGetRequest(id: checking.id)).balance == "3340.00")
            let payment = try #require(try other.call(LiabilityGetRequest(id: mortgage.id)).history?.first { $0.kind == .payment }?.transactionId)
            #expect(throws: (any Error).self, "a payment is not deleted alone") { try other.call(TransactionDeleteRequest(id: payment)) }
            // Restoring again is refused: the ledger has them now.
            #expect(throws: (any Error).self) {
                try other.call(NetWorthRestoreRequest(netWorth: NetWorthRestore(assets: [], liabilities: [], snapshots: snapshots.snapshots)))
            }
        }
    }
}
