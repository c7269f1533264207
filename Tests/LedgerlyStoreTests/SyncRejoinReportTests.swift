import Foundation
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// D482: a round's report of a retirement says "re-join" only while the device is still on the
/// retired ledger. A round that began on the old ledger and reports after this device's own
/// `sync rekey` (or a re-join) put it in the successor must not send it to re-join its own ledger,
/// where it would stop pushing its whole re-sent ledger.
@Suite struct SyncRejoinReportTests {
    static let old = "6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61"
    static let new = "0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d"

    @Test func aRetirementReportedOnTheRetiredLedgerAsksForARejoin() async throws {
        let store = try await Store()
        _ = try await store.call(SyncEnableRequest(ledgerId: Self.old, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        let status = try await store.call(SyncReportRequest(error: nil, waitingIn: 0, rejoinLedgerId: Self.new))
        #expect(status.state == "rejoin" && status.rejoinLedgerId == Self.new)
    }

    @Test func aLateReportNamingTheLedgerThisDeviceIsInChangesNothing() async throws {
        let store = try await Store()
        let device = SyncMergeTests.device()
        _ = try await store.call(SyncEnableRequest(ledgerId: Self.old, deviceId: device, hub: "h", mode: .create))
        // The rekey's `sync.enable` for the new ledger, then the late report of a round begun on the old one.
        _ = try await store.call(SyncEnableRequest(ledgerId: Self.new, deviceId: device, hub: "h", mode: .rekey))
        let status = try await store.call(SyncReportRequest(error: nil, waitingIn: 0, rejoinLedgerId: Self.new))
        #expect(status.state != "rejoin" && status.rejoinLedgerId == nil, "\(status.state)")
    }
}
