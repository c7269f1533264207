import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Allocation drift through the real store and alerts service: one `allocation.drift` alert
    /// per drifting target and episode, across a graceful restart and a `kill -9` of the alerts
    /// service; a drift that comes back within the threshold and leaves it again is a new episode.
    @Suite struct AllocationDriftTests {
        static func driftAlerts(_ client: RequestClient) throws -> [AlertRecord] {
            try client.call(AlertListRequest(limit: 1_000)).alerts.filter { $0.kind == .allocationDrift }
        }

        static func endedEpisodes(_ harness: ServiceHarness) -> Int {
            harness.log(.alerts).components(separatedBy: "allocation drift ended").count - 1
        }

        @Test func eachDriftEpisodeRaisesOneAlertPerTargetAcrossRestarts() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            let today = Timestamp.today()

            // 80 units of a world ETF ("core") and 20 of a bond fund ("safe"), all at 100 EUR:
            // exactly on the 80/20 targets.
            let account = try client.call(InvestAccountCreateRequest(name: "Broker"))
            let world = try client.call(AssetCreateRequest(symbol: "WRLD", assetType: .etf, quoteCurrency: "EUR", provider: .manual, allocationGroup: "core"))
            let bonds = try client.call(AssetCreateRequest(symbol: "BOND", assetType: .bond, quoteCurrency: "EUR", provider: .manual, allocationGroup: "safe"))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: world.id, quantity: "80", price: "100", date: today))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: bonds.id, quantity: "20", price: "100", date: today))
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "100"))
            _ = try client.call(PriceSetRequest(assetId: bonds.id, price: "100"))
            _ = try client.call(AllocationSetRequest(dimension: .group, key: "core", percent: "80"))
            _ = try client.call(AllocationSetRequest(dimension: .group, key: "safe", percent: "20"))

            try harness.start(.alerts)
            defer { harness.stop(.alerts) }
            Thread.sleep(forTimeInterval: 1.5)
            #expect(try Self.driftAlerts(client).isEmpty)  // on target: nothing

            // WRLD to 150: core is 12000 / 14000 = 85.71 % (+5.71 points), safe 14.29 % (−5.71).
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "150"))
            try harness.waitFor("a drift alert for each target") { try Self.driftAlerts(client).count >= 2 }
            Thread.sleep(forTimeInterval: 1)
            let first = try Self.driftAlerts(client)
            #expect(first.map(\.subject).sorted() == ["core", "safe"])
            #expect(first.contains { $0.message.contains("85.71") && $0.message.contains("80.00") })

            // A graceful restart, and a kill -9 with a change made while the service is down.
            harness.stop(.alerts)
            try harness.start(.alerts)
            Thread.sleep(forTimeInterval: 1.5)
            #expect(try Self.driftAlerts(client).count == 2)
            harness.stop(.alerts, signal: SIGKILL)
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "151"))  // still drifting
            try harness.start(.alerts)
            Thread.sleep(forTimeInterval: 1.5)
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "152"))  // checked again
            Thread.sleep(forTimeInterval: 1.5)
            #expect(try Self.driftAlerts(client) == first)

            // Back within the threshold (core 8800 / 10800 = 81.48 %): both episodes end...
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "110"))
            try harness.waitFor("both episodes to end") { Self.endedEpisodes(harness) >= 2 }
            #expect(try Self.driftAlerts(client).count == 2)
            // ...and out again: a second episode, a second alert for each target.
            _ = try client.call(PriceSetRequest(assetId: world.id, price: "150"))
            try harness.waitFor("the second episode's alerts") { try Self.driftAlerts(client).count >= 4 }
            Thread.sleep(forTimeInterval: 1)
            let all = try Self.driftAlerts(client)
            #expect(all.count == 4)
            #expect(Set(all.map(\.key)).count == 4)
            #expect(all.filter { $0.subject == "core" }.count == 2)
            #expect(all.filter { $0.subject == "safe" }.count == 2)
            #expect(Self.endedEpisodes(harness) == 2)
        }
    }
}
