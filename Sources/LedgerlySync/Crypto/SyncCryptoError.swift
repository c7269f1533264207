import Foundation

/// Why a key could not be made or a sealed message could not be opened. Each message reads as a
/// sentence in a terminal and never contains key material or plaintext.
public enum SyncCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key check stored on the hub does not open with this key.
    case wrongPassphrase
    /// A sealed message did not open: another key, or bytes or labels changed on the hub.
    case messageDoesNotOpen(deviceId: UUID, hlc: String)
    /// Sealed bytes too short or of an unknown format version.
    case malformedSealed(String)
    case unsupportedKDF(String)
    case invalidKDFParameters(String)
    case emptyPassphrase
    /// A new ledger's passphrase below `PassphraseStrength.minimumBits`.
    case weakPassphrase(estimatedBits: Int, required: Int)
    case derivationFailed(String)
    case invalidKeyLength(Int)

    public var description: String {
        switch self {
        case .wrongPassphrase:
            "the passphrase does not open this ledger"
        case .messageDoesNotOpen(let deviceId, let hlc):
            "a message from device \(deviceId) at \(hlc) does not open with this ledger's key: it was sealed with another key, or changed on the hub"
        case .malformedSealed(let reason):
            "a sealed message is malformed: \(reason)"
        case .unsupportedKDF(let name):
            "the ledger's key is derived with \"\(name)\", which this version of Ledgerly does not know (scrypt expected)"
        case .invalidKDFParameters(let reason):
            "the ledger's key derivation parameters are out of bounds: \(reason)"
        case .emptyPassphrase:
            "the passphrase is empty"
        case .weakPassphrase(let bits, let required):
            "the passphrase is too easy to guess for a new ledger: about \(bits) bits by Ledgerly's estimate, and \(required) are needed (whoever reads the hub can try guesses offline). Five or more random words do it: `ledgerly sync passphrase suggest` makes one; docs/sync.md says how passphrases are counted"
        case .derivationFailed(let reason):
            "the ledger's key could not be derived: \(reason)"
        case .invalidKeyLength(let count):
            "a ledger key is 32 bytes, not \(count)"
        }
    }
}
