import Foundation
import LedgerlyRuntime
import Testing

/// The figures are promises other code and tests rely on (D85, D114): pinned here so a change is
/// a decision, not an accident.
@Suite struct ClientTimingTests {
    @Test func eachRoleKeepsItsFigures() {
        #expect(ClientTiming.standard == ClientTiming(timeoutMilliseconds: 2_500, attempts: 3))
        #expect(ClientTiming.ratesToStore == ClientTiming(timeoutMilliseconds: 10_000, attempts: 3))
        #expect(ClientTiming.followerCatchUp == ClientTiming(timeoutMilliseconds: 2_000, attempts: 1))
        #expect(ClientTiming.statusProbe(timeoutMilliseconds: 2_500) == ClientTiming(timeoutMilliseconds: 1_000, attempts: 1))
        #expect(ClientTiming.statusProbe(timeoutMilliseconds: 200) == ClientTiming(timeoutMilliseconds: 200, attempts: 1))
        #expect(ClientTiming.ratesRefresh(timeoutMilliseconds: 2_500) == ClientTiming(timeoutMilliseconds: 60_000, attempts: 1))
        #expect(ClientTiming.cli(timeoutMilliseconds: 10) == ClientTiming(timeoutMilliseconds: 50, attempts: 3))
    }

    @Test func eachServiceHasItsOwnEndpointAndLock() {
        let home = LedgerlyHome(root: .init(fileURLWithPath: "/tmp/ledgerly-home"))
        #expect(LedgerlyService.allCases.map(\.name) == ["ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync"])
        #expect(LedgerlyService.store.commandEndpoint(in: home) == home.storeCommandEndpoint)
        #expect(Set(LedgerlyService.allCases.map { $0.commandEndpoint(in: home) }).count == 4)
        #expect(LedgerlyService.alerts.lockPath(in: home) == "/tmp/ledgerly-home/run/ledgerly-alerts.lock")
    }
}
