import Foundation
import LedgerlySync
import Testing

/// The retirement record a rekey leaves on the hub (D480): believed only when it opens with the
/// retired ledger's key and names the ledgers the hub's clear columns name.
@Suite struct LedgerRetirementTests {
    let oldLedger = UUID(), newLedger = UUID(), device = UUID(), lost = UUID()

    func key(_ byte: UInt8) throws -> LedgerKey { try LedgerKey(bytes: [UInt8](repeating: byte, count: 32)) }

    @Test func opensWithTheOldKeyAndSaysWhatWasSealed() throws {
        let record = LedgerRetirement(retiredLedgerId: oldLedger, successorLedgerId: newLedger, byDevice: device, retiredDevices: [lost])
        let sealed = try record.seal(with: key(1))
        #expect(try LedgerRetirement.open(sealed, key: key(1), retired: oldLedger, successor: newLedger) == record)
    }

    @Test func aHubCannotForgeOneOrPointItElsewhere() throws {
        let sealed = try LedgerRetirement(retiredLedgerId: oldLedger, successorLedgerId: newLedger, byDevice: device, retiredDevices: []).seal(with: key(1))
        // Made with another key (the hub's own, or the new ledger's): not believed.
        #expect(throws: SyncCryptoError.self) { try LedgerRetirement.open(sealed, key: key(2), retired: oldLedger, successor: newLedger) }
        // The clear successor changed to a ledger of the hub's choosing: not believed.
        #expect(throws: SyncCryptoError.self) { try LedgerRetirement.open(sealed, key: key(1), retired: oldLedger, successor: UUID()) }
        // The record moved to retire another ledger: not believed.
        #expect(throws: SyncCryptoError.self) { try LedgerRetirement.open(sealed, key: key(1), retired: UUID(), successor: newLedger) }
        // Random bytes, a flipped bit: not believed.
        #expect(throws: SyncCryptoError.self) { try LedgerRetirement.open(Data((0..<80).map { _ in UInt8.random(in: 0...255) }), key: key(1), retired: oldLedger, successor: newLedger) }
        var flipped = sealed
        flipped[flipped.count - 1] ^= 1
        #expect(throws: SyncCryptoError.self) { try LedgerRetirement.open(flipped, key: key(1), retired: oldLedger, successor: newLedger) }
    }
}
