import Crypto
import Foundation
import _CryptoExtras

/// The 32-byte key that seals every message of one ledger, derived from the ledger's passphrase
/// with scrypt. Every device of the ledger derives the same key from the same passphrase and the
/// hub's `KDFParameters`; the hub never sees the key or the passphrase, only a key check (a constant
/// sealed with the key) that lets a device tell a wrong passphrase from a right one before it
/// pulls anything.
///
/// The passphrase is normalised to Unicode NFC first, so "é" typed as one code point on one
/// device and as "e" + accent on another still opens the same ledger.
///
/// Printing a key shows `LedgerKey(32 bytes)`, never the bytes.
public struct LedgerKey: Sendable {
    /// The raw bytes, since swift-crypto's `SymmetricKey` is not `Sendable`; a `SymmetricKey` is
    /// made from them for each seal or open.
    private let keyBytes: [UInt8]

    var symmetricKey: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// A key read back from `ledger.key`.
    public init(bytes: [UInt8]) throws(SyncCryptoError) {
        guard bytes.count == 32 else { throw .invalidKeyLength(bytes.count) }
        keyBytes = bytes
    }

    /// Runs scrypt: about a tenth of a second and 32 MiB at the standard cost. Synchronous and
    /// CPU-bound; callers on a shared executor should expect that pause.
    public static func derive(passphrase: String, parameters: KDFParameters) throws(SyncCryptoError) -> LedgerKey {
        let normalised = passphrase.precomposedStringWithCanonicalMapping
        guard !normalised.isEmpty else { throw .emptyPassphrase }
        guard parameters.algorithm == KDFParameters.scrypt else { throw .unsupportedKDF(parameters.algorithm) }
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(normalised.utf8), salt: parameters.salt, outputByteCount: 32,
                rounds: parameters.n, blockSize: parameters.r, parallelism: parameters.p
            )
            return LedgerKey(keyBytes: key.withUnsafeBytes { Array($0) })
        } catch {
            throw .derivationFailed("\(error)")
        }
    }

    private init(keyBytes: [UInt8]) {
        self.keyBytes = keyBytes
    }

    /// The raw key, for `ledger.key` only.
    public var bytes: [UInt8] { keyBytes }

    /// A fresh key check for `ledgerly_ledgers.key_check`: a fixed constant sealed with this key,
    /// bound to the ledger id so one ledger's check cannot stand in for another's.
    public func makeKeyCheck(ledgerId: UUID) -> Data {
        // Sealing a constant with ChaChaPoly cannot fail for a 32-byte key.
        (try? MessageSeal.sealRaw(Self.keyCheckConstant, key: symmetricKey, aad: Self.keyCheckAAD(ledgerId))) ?? Data()
    }

    /// Throws `SyncCryptoError.wrongPassphrase` unless `keyCheck` was made with this key for this ledger.
    public func verify(keyCheck: Data, ledgerId: UUID) throws(SyncCryptoError) {
        guard let opened = try? MessageSeal.openRaw(keyCheck, key: symmetricKey, aad: Self.keyCheckAAD(ledgerId)),
              opened == Self.keyCheckConstant
        else { throw .wrongPassphrase }
    }

    static let keyCheckConstant = Data("ledgerly ledger key check v1".utf8)

    /// A label of its own, so a key check can never be taken for a message or the reverse.
    static func keyCheckAAD(_ ledgerId: UUID) -> Data {
        var aad = Data("ledgerly-key-check v1\0".utf8)
        withUnsafeBytes(of: ledgerId.uuid) { aad.append(contentsOf: $0) }
        return aad
    }
}

extension LedgerKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "LedgerKey(32 bytes)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
