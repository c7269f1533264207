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
/// Sealed bytes: format version ‖ 12-byte nonce ‖ ciphertext ‖ 16-byte tag.
///
/// - Version 2 (written since issue 44, D436): the plaintext is padded inside the seal to a
///   bucket, so the hub cannot tell a wallet from a transaction or the settings by length. The
///   sealed part is a 4-byte big-endian length ‖ the plaintext ‖ zero bytes, 256 bytes in all, or
///   the next power of two that holds it (512, 1024, …). The hub sees only the bucket. The label in
///   the authenticated data says v2, so a v2 message cannot be passed off as v1 or the reverse, and
///   the padding must be all zeros.
/// - Version 1 (before): the plaintext as it is, no padding. Still opened, so messages an existing
///   hub holds stay readable; never written.
public struct MessageSeal: Sendable {
    public let ledgerId: UUID
    private let key: LedgerKey

    /// The format `seal` writes.
    static let version: UInt8 = 2
    /// The unpadded format, read only (and the key check's).
    static let unpaddedVersion: UInt8 = 1
    /// Version byte + nonce + tag: what every sealed message adds to its padded plaintext.
    public static let overhead = 1 + 12 + 16
    /// The smallest bucket: a sealed message is never shorter than this plus `overhead`.
    public static let minimumBucket = 256

    /// The padded size for a plaintext of `count` bytes: the length prefix and the plaintext,
    /// rounded up to 256 or the next power of two.
    public static func bucket(forPlaintext count: Int) -> Int {
        let needed = count + 4
        var bucket = minimumBucket
        while bucket < needed { bucket <<= 1 }
        return bucket
    }

    public init(key: LedgerKey, ledgerId: UUID) {
        self.key = key
        self.ledgerId = ledgerId
    }

    public func seal(_ plaintext: some DataProtocol, deviceId: UUID, hlc: String) throws(SyncCryptoError) -> Data {
        let count = plaintext.count
        guard count <= Int(UInt32.max) - 4 else { throw .malformedSealed("a message of \(count) bytes is too long to seal") }
        var padded = Data(capacity: Self.bucket(forPlaintext: count))
        withUnsafeBytes(of: UInt32(count).bigEndian) { padded.append(contentsOf: $0) }
        padded.append(contentsOf: plaintext)
        padded.append(Data(count: Self.bucket(forPlaintext: count) - padded.count))
        do {
            return try Self.sealRaw(padded, key: key.symmetricKey, aad: aad(deviceId: deviceId, hlc: hlc, version: Self.version), version: Self.version)
        } catch {
            throw .malformedSealed("sealing failed: \(error)")
        }
    }

    /// Throws `SyncCryptoError.messageDoesNotOpen` for a wrong key or changed bytes, device or clock.
    /// Opens both formats (version 1 as it was, version 2 with its padding checked and removed).
    public func open(_ sealed: Data, deviceId: UUID, hlc: String) throws(SyncCryptoError) -> Data {
        guard sealed.count >= Self.overhead else { throw .malformedSealed("\(sealed.count) bytes, shorter than the \(Self.overhead) every sealed message has") }
        guard let version = sealed.first, version == Self.version || version == Self.unpaddedVersion else {
            throw .malformedSealed("format version \(sealed.first ?? 0) (1 or 2 expected)")
        }
        guard let opened = try? Self.openRaw(sealed, key: key.symmetricKey, aad: aad(deviceId: deviceId, hlc: hlc, version: version), version: version) else {
            throw .messageDoesNotOpen(deviceId: deviceId, hlc: hlc)
        }
        guard version == Self.version else { return opened }
        guard opened.count >= 4 else { throw .malformedSealed("a padded message of \(opened.count) bytes has no length") }
        let start = opened.startIndex
        let length = Int(opened[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard length <= opened.count - 4 else { throw .malformedSealed("a padded message says \(length) bytes and holds \(opened.count - 4)") }
        let end = start + 4 + length
        guard opened[end...].allSatisfy({ $0 == 0 }) else { throw .malformedSealed("a padded message's padding is not zeros") }
        return Data(opened[(start + 4)..<end])
    }

    /// "ledgerly-sync-message v<version>\0" ‖ ledger id ‖ device id ‖ clock length (4 bytes,
    /// big-endian) ‖ clock.
    func aad(deviceId: UUID, hlc: String, version: UInt8 = MessageSeal.version) -> Data {
        var aad = Data("ledgerly-sync-message v\(version)\0".utf8)
        withUnsafeBytes(of: ledgerId.uuid) { aad.append(contentsOf: $0) }
        withUnsafeBytes(of: deviceId.uuid) { aad.append(contentsOf: $0) }
        let clock = Data(hlc.utf8)
        withUnsafeBytes(of: UInt32(clock.count).bigEndian) { aad.append(contentsOf: $0) }
        aad.append(clock)
        return aad
    }

    static func sealRaw(_ plaintext: some DataProtocol, key: SymmetricKey, aad: Data, version: UInt8 = unpaddedVersion) throws -> Data {
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: ChaChaPoly.Nonce(), authenticating: aad)
        var sealed = Data([version])
        sealed.append(box.combined)
        return sealed
    }

    static func openRaw(_ sealed: Data, key: SymmetricKey, aad: Data, version: UInt8 = unpaddedVersion) throws -> Data {
        guard sealed.count >= overhead, sealed.first == version else { throw CryptoKitError.incorrectParameterSize }
        let box = try ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        return try ChaChaPoly.open(box, using: key, authenticating: aad)
    }
}
