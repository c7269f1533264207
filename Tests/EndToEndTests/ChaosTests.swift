import Foundation
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Reliability rules 2, 3, 4 and 6 under fire, small and bounded (`ledgerly-bench chaos` runs
    /// the large version): 8 writers retrying with their keys while `kill -9` hits the store, the
    /// rates and the alerts service in turn.
    @Suite struct ChaosTests {
        @Test func killingEachServiceInTurnLosesAndDoublesNothing() throws {
            let report = try ChaosRun(ChaosConfiguration(binaries: ServiceHarness.binaryDirectory, writers: 8, writesPerWriter: 25, kills: 6)).run()
            #expect(report.kills == 6)
            #expect(report.acknowledged == 200)
            #expect(report.lost == 0)
            #expect(report.duplicated == 0)
            #expect(report.alertsMissing == 0)
            #expect(report.alertsDoubled == 0)
            #expect(report.balanceMatches)
            #expect(report.integrity == "ok")
            #expect(report.lag == ["ledgerly-rates": 0, "ledgerly-alerts": 0])
            #expect(report.passed, "\(report.lines.joined(separator: "\n"))")
        }
    }
}
