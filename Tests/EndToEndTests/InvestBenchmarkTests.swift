import Foundation
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// `ledgerly-bench invest`'s logic at a tiny scale, against the real store (the benchmark
    /// runs it at 1,000 assets and 100,000 trades). Checks what was loaded and answered, never
    /// how fast.
    @Suite struct InvestBenchmarkTests {
        @Test func aTinyInvestmentHistoryLoadsAndEveryReplyAgreesWithIt() throws {
            let report = try InvestBenchmarkRun(InvestBenchmarkConfiguration(
                binaries: ServiceHarness.binaryDirectory, assets: 12, trades: 480, splits: 2, repetitions: 2, year: 2024, batch: 100)).run()
            #expect(report.assets == 12)
            #expect(report.splits == 2)
            #expect(report.tradesLoaded == 480 + 2)
            #expect(report.holdingsMatch)
            #expect(report.expectedSales > 0)
            #expect(report.gainsAll.items == report.expectedSales)
            #expect(report.expectedSalesInYear > 0)
            #expect(report.gainsYear.items == report.expectedSalesInYear)
            #expect(report.gainsYear.items < report.gainsAll.items)
            // Every asset still held has a price (USD ones a rate too), so every holding is valued.
            #expect(report.holdings.items > 0)
            #expect(report.valuedHoldings == report.holdings.items)
            // A page of 100 holds them all here; its totals and count are the full reply's.
            #expect(report.holdingsPageMatch)
            #expect(report.holdingsPage.items == report.holdings.items)
            for trips in [report.holdings, report.holdingsPage, report.gainsYear, report.gainsAll] {
                #expect(trips.times.count == 2)
                #expect(trips.replyBytes > 100)
            }
            #expect(report.databaseBytes > 0)
        }
    }
}
