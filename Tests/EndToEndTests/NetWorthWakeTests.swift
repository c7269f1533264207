import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45, item 20 (D403): a write dated in an ended month wakes the net-worth snapshotter,
    /// so the months it makes missing are taken within seconds, not at the next 10-minute check.
    @Suite struct NetWorthWakeTests {
        @Test func aBackDatedTransactionGetsItsMonthsTakenWithinSeconds() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR", "--starting-balance", "100").status == 0)
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            try harness.start(.alerts)
            defer { harness.stop(.alerts) }
            // The first run finds nothing to take: the ledger's history starts this month.
            try harness.waitFor("the first run") { NetWorthTests.completeRuns(harness) >= 1 }
            #expect(try NetWorthTests.snapshots(client).snapshots.isEmpty)

            // Three months back: those months and the ones after, up to the last ended one, are
            // now missing, and the alerts service takes them without waiting for its schedule.
            let thisMonth = LedgerMonth.of(Timestamp.today())
            let first = LedgerMonth.previous(LedgerMonth.previous(LedgerMonth.previous(thisMonth)))
            let added = try harness.cli("tx", "add", "--wallet", "Cash", "--amount", "20", "--date", "\(first)-15")
            #expect(added.status == 0, "\(added.stderr)")
            try harness.waitFor("the back-dated months", seconds: 15) { try NetWorthTests.snapshots(client).missing.isEmpty && !NetWorthTests.snapshots(client).snapshots.isEmpty }
            NetWorthTests.expectOnePerMonth(try NetWorthTests.snapshots(client), from: first, to: LedgerMonth.previous(thisMonth))

            // A write dated this month wakes nothing: no run is asked for it.
            let runs = NetWorthTests.completeRuns(harness)
            #expect(try harness.cli("tx", "add", "--wallet", "Cash", "--amount", "1").status == 0)
            Thread.sleep(forTimeInterval: 1.5)
            #expect(NetWorthTests.completeRuns(harness) == runs)
        }
    }
}
