import Foundation
import LedgerlyProtocol
@testable import LedgerlySync
import Testing

/// D481: `sync enable` after a rekey keeps the device's id and re-sends its whole ledger only
/// into the ledger the verified retirement names; another ledger is joined as any ledger is.
@Suite struct SyncRejoinModeTests {
    let old = UUID(), successor = UUID(), other = UUID(), device = UUID()

    @Test func theSuccessorIsRejoinedWithTheSameDevice() {
        let chosen = SyncConnector.enabling(successor, previous: (old, device), successor: successor, mode: .join)
        #expect(chosen.deviceId == device && chosen.mode == .rekey && chosen.named == "rejoin")
    }

    @Test func anotherLedgerIsJoinedAsAnyLedgerIs() {
        let joined = SyncConnector.enabling(other, previous: (old, device), successor: successor, mode: .join)
        #expect(joined.deviceId != device && joined.mode == .join, "\(joined)")
        let merged = SyncConnector.enabling(other, previous: (old, device), successor: successor, mode: .merge)
        #expect(merged.mode == .merge && merged.deviceId != device)
    }

    @Test func theSameLedgerResumesAndANewDeviceGetsANewId() {
        let resumed = SyncConnector.enabling(old, previous: (old, device), successor: nil, mode: .join)
        #expect(resumed.deviceId == device && resumed.mode == .merge && resumed.named == "resume")
        let fresh = SyncConnector.enabling(old, previous: nil, successor: nil, mode: .create)
        #expect(fresh.deviceId != device && fresh.mode == .create)
    }
}
