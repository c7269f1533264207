import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// D463: what a hub supplied reaches the user's terminal through `sync status`; a hostile hub's
/// escape sequences must arrive there inert (escaped, and a clock that is not one cut).
@Suite struct SyncHubTextTests {
    @Test func aQuarantinedRowsClockAndAHubErrorAreShownInert() async throws {
        let store = try await Store()
        _ = try await store.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J" + String(repeating: "x", count: 200)
        let device = "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
        let good = "000001765112400000.000003.\(device)"
        _ = try await store.call(SyncApplyRequest(messages: [], quarantined: [
            SyncSetAside(hubSeq: 1, device: device, hlc: hostile, reason: "it does not open"),
            SyncSetAside(hubSeq: 2, device: device + "\u{1B}[31m", hlc: good, reason: "bad\u{9B}seal"),
            SyncSetAside(hubSeq: 3, device: device, hlc: "000001765112400000.000003.\u{1B}[2J", reason: "it does not open"),
        ]))
        _ = try await store.call(SyncReportRequest(error: "hub said: \u{1B}[8mhidden", waitingIn: nil))
        let status = try await store.call(SyncStatusRequest())
        let rows = try #require(status.quarantined)
        #expect(rows.count == 3)
        let shown = rows.map { [$0.device, $0.hlc, $0.reason] }.flatMap { $0 } + [status.lastError ?? ""]
        for text in shown {
            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(text.debugDescription)")
        }
        #expect(rows[0].hlc.utf8.count <= HubProvidedText.clockLimit && rows[0].hlc.hasPrefix("\\u{1B}]0;owned\\u{7}") && rows[0].hlc.hasSuffix("…"), "\(rows[0].hlc)")
        #expect(rows[1].hlc == good)  // a clock reading is kept as it is
        #expect(rows[2].hlc == "000001765112400000.000003.\\u{1B}[2J")  // reads as a clock, yet not plain
        #expect(rows[1].device == device + "\\u{1B}[31m" && rows[1].reason == "bad\\u{9B}seal")
        #expect(status.lastError == "hub said: \\u{1B}[8mhidden")
    }
}
