import Crypto
import Foundation

/// Seals and opens the messages one device sends the others through the hub.
///
/// ChaCha20-Poly1305 rather than AES-GCM: it is constant-time in software, so it is as safe and
/// fast on a small ARM board or an old CPU without AES instructions as on a server, and misuse
/// limits are the same for our volumes (a random 96-bit nonce per message; a ledger seals far fewer
/// than the 2^32 messages where random nonces start to risk a repeat).
///
/// The authenticated data is a label, the ledger id, the sending device's id and the message's
/// hybrid logical clock. The hub stores those three in clear next to the ciphertext (it needs them
/// to order and de-duplicate); binding them into the tag means the hub cannot move a message to
/// another ledger, claim it came from another device, or change its clock without the open failing.
///
/// Sealed bytes: format version `0x01` ‖ 12-byte nonce ‖ ciphertext ‖ 16-byte tag.
public struct MessageSeal: Sendable {
    public let ledgerId: UUID
    private let key: LedgerKey

    static let version: UInt8 = 1
    /// Version byte + nonce + tag: what a sealed empty message weighs.
    public static let overhead = 1 + 12 + 16

    public init(key: LedgerKey, ledgerId: UUID) {
        self.key = key
        self.ledgerId = ledgerId
    }

    public func seal(_ plaintext: some DataProtocol, deviceId: UUID, hlc: String) throws(SyncCryptoError) -> Data {
        do {
            return try Self.sealRaw(plaintext, key: key.symmetricKey, aad: aad(deviceId: deviceId, hlc: hlc))
        } catch {
            throw .malformedSealed("sealing failed: \(error)")
        }
    }

    /// Throws `SyncCryptoError.messageDoesNotOpen` for a wrong key or changed bytes, device or clock.
    public func open(_ sealed: Data, deviceId: UUID, hlc: String) throws(SyncCryptoError) -> Data {
        guard sealed.count >= Self.overhead else { throw .malformedSealed("\(sealed.count) bytes, shorter than the \(Self.overhead) every sealed message has") }
        guard sealed.first == Self.version else { throw .malformedSealed("format version \(sealed.first ?? 0) (1 expected)") }
        guard let opened = try? Self.openRaw(sealed, key: key.symmetricKey, aad: aad(deviceId: deviceId, hlc: hlc)) else {
            throw .messageDoesNotOpen(deviceId: deviceId, hlc: hlc)
        }
        return opened
    }

    /// "ledgerly-sync-message v1\0" ‖ ledger id ‖ device id ‖ clock length (4 bytes, big-endian) ‖ clock.
    func aad(deviceId: UUID, hlc: String) -> Data {
        var aad = Data("ledgerly-sync-message v1\0".utf8)
        withUnsafeBytes(of: ledgerId.uuid) { aad.append(contentsOf: $0) }
        withUnsafeBytes(of: deviceId.uuid) { aad.append(contentsOf: $0) }
        let clock = Data(hlc.utf8)
        withUnsafeBytes(of: UInt32(clock.count).bigEndian) { aad.append(contentsOf: $0) }
        aad.append(clock)
        return aad
    }

    static func sealRaw(_ plaintext: some DataProtocol, key: SymmetricKey, aad: Data) throws -> Data {
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: ChaChaPoly.Nonce(), authenticating: aad)
        var sealed = Data([version])
        sealed.append(box.combined)
        return sealed
    }

    static func openRaw(_ sealed: Data, key: SymmetricKey, aad: Data) throws -> Data {
        guard sealed.count >= overhead, sealed.first == version else { throw CryptoKitError.incorrectParameterSize }
        let box = try ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        return try ChaChaPoly.open(box, using: key, authenticating: aad)
    }
}
