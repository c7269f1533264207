import Foundation

/// What `ledgerly sync rekey` leaves on the hub for the devices still on the old ledger: the
/// ledger that replaces it, sealed with the old ledger's key (D480).
///
/// Why sealed with the old key: a device on the old ledger believes a retirement only when it
/// opens with the key it holds, so a hostile hub cannot forge one to push devices off their
/// ledger (or onto one of its own). What a hub can do is withhold it: then the devices that
/// were not re-joined keep syncing among themselves on the old ledger, seeing nothing written on
/// the new one — the same as a hub that drops everything (docs/sync-hub.md).
///
/// The hub keeps the successor's id and the retired devices in clear beside the seal (it needs
/// them to list); `open` checks that the sealed text says the same.
public struct LedgerRetirement: Sendable, Hashable, Codable {
    public let retiredLedgerId: UUID
    public let successorLedgerId: UUID
    /// The device that ran the rekey.
    public let byDevice: UUID
    /// Devices named with `sync rekey --retire`: they will not be given the new passphrase.
    public let retiredDevices: [UUID]

    public init(retiredLedgerId: UUID, successorLedgerId: UUID, byDevice: UUID, retiredDevices: [UUID]) {
        self.retiredLedgerId = retiredLedgerId
        self.successorLedgerId = successorLedgerId
        self.byDevice = byDevice
        self.retiredDevices = retiredDevices
    }

    /// The record sealed with the retired ledger's key, for `ledgerly_retirements.sealed`.
    public func seal(with key: LedgerKey) throws(SyncCryptoError) -> Data {
        let plain: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            plain = try encoder.encode(self)
        } catch {
            throw .malformedSealed("the retirement record could not be written: \(error)")
        }
        do {
            return try MessageSeal.sealRaw(plain, key: key.symmetricKey, aad: Self.aad(retired: retiredLedgerId, successor: successorLedgerId))
        } catch {
            throw .malformedSealed("sealing the retirement record failed: \(error)")
        }
    }

    /// The record the hub holds for `retired`, opened with that ledger's key; throws
    /// `messageDoesNotOpen`-like errors when it was not made with the key or names another
    /// ledger than the hub's clear columns say.
    public static func open(_ sealed: Data, key: LedgerKey, retired: UUID, successor: UUID) throws(SyncCryptoError) -> LedgerRetirement {
        guard let plain = try? MessageSeal.openRaw(sealed, key: key.symmetricKey, aad: aad(retired: retired, successor: successor)) else {
            throw .malformedSealed("the hub's retirement record of ledger \(retired.uuidString.lowercased()) does not open with this ledger's key")
        }
        guard let record = try? JSONDecoder().decode(LedgerRetirement.self, from: plain),
              record.retiredLedgerId == retired, record.successorLedgerId == successor
        else { throw .malformedSealed("the hub's retirement record of ledger \(retired.uuidString.lowercased()) says another ledger inside its seal than outside") }
        return record
    }

    /// A label of its own, so a retirement can never be taken for a message or a key check.
    static func aad(retired: UUID, successor: UUID) -> Data {
        var aad = Data("ledgerly-retirement v1\0".utf8)
        withUnsafeBytes(of: retired.uuid) { aad.append(contentsOf: $0) }
        withUnsafeBytes(of: successor.uuid) { aad.append(contentsOf: $0) }
        return aad
    }
}
