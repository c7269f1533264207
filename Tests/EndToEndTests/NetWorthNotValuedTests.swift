import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45 item 4, through the real store and CLI: a holding without a price is not valued.
    /// It carries no value (null, "not valued"), is never counted (never 0.00) and is named under
    /// "not complete" in every view: `networth --json` and its table, a month's snapshot (as
    /// taken and as listed), `report networth`'s table, chart and CSV (D410).
    @Suite struct NetWorthNotValuedTests {
        @Test func anUnpricedHoldingIsNeverZeroAndIsNamedInEveryView() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            _ = try client.call(ManualAssetCreateRequest(name: "Car", value: "1000", currency: "EUR", valuedOn: "2026-01-01"))
            let broker = try client.call(InvestAccountCreateRequest(name: "Broker"))
            let acme = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "EUR"))
            let beta = try client.call(AssetCreateRequest(symbol: "BETA", assetType: .stock, quoteCurrency: "EUR"))
            // January: the account's only holding (ACME) has no price at all.
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: acme.id, quantity: "10", price: "100", date: "2026-01-10"))
            // February: BETA is bought and priced; ACME still has none.
            _ = try client.call(TradeBuyRequest(accountId: broker.id, assetId: beta.id, quantity: "5", price: "20", date: "2026-02-10"))
            _ = try client.call(PriceSetRequest(assetId: beta.id, price: "25", asOf: "2026-02-20T12:00:00Z"))

            // networth --json at the end of January: the account has no value, counts nothing, is named.
            let january = try JSONDecoder().decode(NetWorthReport.self, from: Data(try Self.succeed(harness.cli("networth", "--at", "2026-01-31", "--json")).utf8))
            let account = try #require(january.items.first { $0.kind == .investmentAccount })
            #expect(account.baseValue == nil && account.corePart == nil && account.volatilePart == nil)
            #expect(!account.counted)
            #expect(account.notValued == ["Broker"])
            #expect(january.notValued == ["Broker"] && !january.complete)
            #expect(january.figures.netWorth == "1000.00")
            let januaryTable = try Self.succeed(harness.cli("networth", "--at", "2026-01-31"))
            let row = try #require(januaryTable.split(separator: "\n").first { $0.hasPrefix("investments") }, "\(januaryTable)")
            #expect(row.contains("not valued") && !row.contains("0.00"), "\(januaryTable)")
            #expect(januaryTable.contains("Not complete: not valued in EUR, so left out of the figures: Broker ("), "\(januaryTable)")

            // Today: BETA is valued (5 × 25), ACME is named, the account is valued in part.
            let today = try JSONDecoder().decode(NetWorthReport.self, from: Data(try Self.succeed(harness.cli("networth", "--json")).utf8))
            let partly = try #require(today.items.first { $0.kind == .investmentAccount })
            #expect(partly.baseValue == "125.00" && partly.counted && partly.notValued == ["Broker: ACME"])
            #expect(today.notValued == ["Broker: ACME"] && !today.complete && today.figures.netWorth == "1125.00")
            let todayTable = try Self.succeed(harness.cli("networth"))
            #expect(todayTable.contains("Broker (partly valued)"), "\(todayTable)")
            #expect(todayTable.contains("left out of the figures: Broker: ACME ("), "\(todayTable)")

            // invest holdings leaves ACME out of its totals and says so.
            let holdings = try Self.succeed(harness.cli("invest", "holdings"))
            #expect(holdings.contains("Not complete: not valued (no price or rate), so left out of the totals: Broker: ACME."), "\(holdings)")

            // The snapshots store the same: no value, not counted, named.
            let takenJanuary = try client.call(NetWorthSnapshotTakeRequest(month: "2026-01"), key: "networth:2026-01").snapshot
            #expect(takenJanuary.notValued == ["Broker"] && !takenJanuary.complete && takenJanuary.figures.netWorth == "1000.00")
            let stored = try #require(takenJanuary.items?.first { $0.kind == .investmentAccount })
            #expect(stored.baseValue == nil && !stored.counted)
            _ = try client.call(NetWorthSnapshotTakeRequest(month: "2026-02"), key: "networth:2026-02")
            let list = try client.call(NetWorthSnapshotListRequest(from: "2026-01", to: "2026-02"))
            #expect(list.snapshots.map(\.notValued) == [["Broker"], ["Broker: ACME"]])
            #expect(list.snapshots.map(\.figures.netWorth) == ["1000.00", "1125.00"])

            // report networth: the table's note, the names, and a line under the chart.
            let report = try Self.succeed(harness.cli("report", "networth", "--from", "2026-01", "--to", "2026-02"))
            #expect(report.split(separator: "\n").contains { $0.hasPrefix("2026-01") && $0.hasSuffix("not complete") }, "\(report)")
            #expect(report.contains("  2026-01: Broker\n") && report.contains("  2026-02: Broker: ACME\n"), "\(report)")
            let chartTitle = try #require(report.range(of: "Net worth (EUR), 2026-01 to 2026-02"), "\(report)")
            #expect(report[chartTitle.upperBound...].contains("Not complete (something left out, not valued): 2026-01, 2026-02"), "\(report)")
            let csv = try Self.succeed(harness.cli("report", "networth", "--csv"))
            #expect(csv.contains(",no,") && csv.contains("Broker: ACME"), "\(csv)")
        }

        static func succeed(_ result: ServiceHarness.CommandResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }
    }
}
