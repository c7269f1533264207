import Foundation

/// How a ledger's key is derived from its passphrase: scrypt with a per-ledger random salt. The hub
/// keeps these (they are not secret) so a new device derives the same key from the same passphrase.
///
/// The standard cost is N = 2^17, r = 8, p = 1: 128 MiB of memory and about 0.4 s on this
/// project's 2-core machines (docs/sync-hub.md has the measured time), paid once when a device
/// joins, never per message. It was N = 2^15 before issue 44 (D435): four times the work for each
/// offline guess at a passphrase, still well under a second to unlock. Ledgers made before keep
/// their parameters (the hub stores them), so they open as before. Tests ask for a cheap cost by name (`.cheapForTestsOnly`); nothing picks
/// it silently. Parameters read from the hub are checked against bounds before any memory is spent,
/// so a hostile hub cannot make a device allocate gigabytes.
public struct KDFParameters: Sendable, Hashable, Codable {
    /// The only algorithm written today; stored so another can be added without guessing.
    public static let scrypt = "scrypt"

    /// What a new ledger costs to open.
    public enum Cost: Sendable, Hashable {
        /// N = 2^17, r = 8, p = 1 (128 MiB).
        case standard
        /// N = 2^10, r = 8, p = 1 (1 MiB): for tests, so a suite does not spend seconds on scrypt.
        case cheapForTestsOnly
        /// Any other cost, checked against the same bounds as parameters read from the hub.
        case custom(n: Int, r: Int, p: Int)
    }

    public let algorithm: String
    public let salt: [UInt8]
    /// CPU/memory cost (scrypt's N), a power of two.
    public let n: Int
    /// Block size (scrypt's r).
    public let r: Int
    /// Parallelism (scrypt's p).
    public let p: Int

    /// Parameters for a new ledger: the cost asked for and 16 fresh random bytes of salt.
    public static func newLedger(cost: Cost) throws(SyncCryptoError) -> KDFParameters {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let (n, r, p): (Int, Int, Int) = switch cost {
        case .standard: (1 << 17, 8, 1)
        case .cheapForTestsOnly: (1 << 10, 8, 1)
        case .custom(let n, let r, let p): (n, r, p)
        }
        return try KDFParameters(algorithm: scrypt, salt: salt, n: n, r: r, p: p)
    }

    /// Checks the parameters (as read from the hub, say) before they are used.
    public init(algorithm: String, salt: [UInt8], n: Int, r: Int, p: Int) throws(SyncCryptoError) {
        guard algorithm == Self.scrypt else { throw .unsupportedKDF(algorithm) }
        guard (16...64).contains(salt.count) else { throw .invalidKDFParameters("a salt of \(salt.count) bytes (16 to 64 expected)") }
        guard n >= 2, n <= 1 << 20, n & (n - 1) == 0 else { throw .invalidKDFParameters("N = \(n) (a power of two from 2 to 2^20 expected)") }
        guard (1...32).contains(r) else { throw .invalidKDFParameters("r = \(r) (1 to 32 expected)") }
        guard (1...16).contains(p) else { throw .invalidKDFParameters("p = \(p) (1 to 16 expected)") }
        guard 128 * r * n <= 1 << 30 else { throw .invalidKDFParameters("N = \(n), r = \(r) need more than 1 GiB") }
        self.algorithm = algorithm
        self.salt = salt
        self.n = n
        self.r = r
        self.p = p
    }

    /// The memory scrypt needs for these parameters (128 · r · N bytes).
    public var memoryBytes: Int { 128 * r * n }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            algorithm: container.decode(String.self, forKey: .algorithm),
            salt: container.decode([UInt8].self, forKey: .salt),
            n: container.decode(Int.self, forKey: .n),
            r: container.decode(Int.self, forKey: .r),
            p: container.decode(Int.self, forKey: .p)
        )
    }
}
