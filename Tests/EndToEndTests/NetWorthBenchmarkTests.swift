import Foundation
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// `ledgerly-bench networth`'s logic at a tiny scale, against the real store (the benchmark
    /// runs it at 1,000,000 transactions and 120 months). Checks what was loaded, taken and
    /// answered, never how fast.
    @Suite struct NetWorthBenchmarkTests {
        @Test func aTinyHistoryIsBackFilledOncePerMonthAndListedAsTaken() throws {
            let report = try NetWorthBenchmarkRun(NetWorthBenchmarkConfiguration(
                binaries: ServiceHarness.binaryDirectory, transactions: 2_000, batch: 500, senders: 2, months: 24, repetitions: 2, recompute: true)).run()
            #expect(report.transactionsLoaded == 2_000)
            #expect(report.netWorthEntries > 24)
            // The synthetic transactions start in 2021-11, before the 24 months of the house.
            #expect(report.expectedMonths.count > 24)
            #expect(report.missingBefore == report.expectedMonths)
            #expect(report.created == report.expectedMonths.count)
            #expect(report.takeTimes.count == report.expectedMonths.count)
            #expect(report.snapshotMonths == report.expectedMonths)
            #expect(report.missingAfter.isEmpty)
            #expect(report.recomputeDiffers == 0)
            #expect(report.todayComplete)
            #expect(report.list.items == 24)
            #expect(report.list.times.count == 2)
            #expect(report.list.replyBytes > 100)
            #expect(report.get.items >= 8 + 3)  // 8 wallets, the house, the crypto, the mortgage
            #expect(report.databaseBytes > 0)
        }
    }
}
