/// SHA3-256 (FIPS 202) and HMAC over it, for webhooks signed as Firefly III signs its own
/// (`hash_hmac('sha3-256', …)`).
///
/// Why written here: swift-crypto has SHA-3 only from version 4, which the HTTP and PostgreSQL
/// packages this project uses do not accept yet. Keccak is short, and the tests check it against
/// Python's `hashlib` and `hmac` (FIPS 202's own test vectors among them).
enum SHA3_256 {
    /// Bytes absorbed per permutation: 1600 bits less twice the 256-bit output.
    static let rate = 136

    static func hash<Bytes: Collection<UInt8>>(_ message: Bytes) -> [UInt8] {
        var state = [UInt64](repeating: 0, count: 25)
        var block = [UInt8](repeating: 0, count: rate)
        var filled = 0
        for byte in message {
            block[filled] = byte
            filled += 1
            if filled == rate {
                absorb(block, into: &state)
                filled = 0
            }
        }
        // Padding: the SHA-3 domain bits 01, then pad10*1.
        for index in filled..<rate { block[index] = 0 }
        block[filled] ^= 0x06
        block[rate - 1] ^= 0x80
        absorb(block, into: &state)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for lane in state.prefix(4) {
            for shift in stride(from: 0, to: 64, by: 8) { digest.append(UInt8(truncatingIfNeeded: lane >> UInt64(shift))) }
        }
        return digest
    }

    /// HMAC (RFC 2104) with SHA3-256: the key padded to the 136-byte block (hashed first when
    /// longer), inner and outer pads 0x36 and 0x5c.
    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > rate ? hash(key) : key
        block += [UInt8](repeating: 0, count: rate - block.count)
        let inner = hash(block.map { $0 ^ 0x36 } + message)
        return hash(block.map { $0 ^ 0x5c } + inner)
    }

    private static func absorb(_ block: [UInt8], into state: inout [UInt64]) {
        for lane in 0..<(rate / 8) {
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(block[lane * 8 + byte]) << UInt64(8 * byte) }
            state[lane] ^= value
        }
        permute(&state)
    }

    /// Keccak-f[1600]: 24 rounds of θ, ρ and π, χ, ι over the 5 × 5 lanes.
    private static func permute(_ a: inout [UInt64]) {
        var c = [UInt64](repeating: 0, count: 5)
        var b = [UInt64](repeating: 0, count: 25)
        for round in 0..<24 {
            for x in 0..<5 { c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] }
            for x in 0..<5 {
                let d = c[(x + 4) % 5] ^ rotate(c[(x + 1) % 5], 1)
                for y in stride(from: 0, to: 25, by: 5) { a[y + x] ^= d }
            }
            for x in 0..<5 {
                for y in 0..<5 {
                    b[y + 5 * ((2 * x + 3 * y) % 5)] = rotate(a[x + 5 * y], rotations[x + 5 * y])
                }
            }
            for y in stride(from: 0, to: 25, by: 5) {
                for x in 0..<5 { a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]) }
            }
            a[0] ^= roundConstants[round]
        }
    }

    private static func rotate(_ value: UInt64, _ count: Int) -> UInt64 {
        count == 0 ? value : (value << UInt64(count)) | (value >> UInt64(64 - count))
    }

    /// ρ offsets, by lane x + 5y.
    private static let rotations: [Int] = [
        0, 1, 62, 28, 27,
        36, 44, 6, 55, 20,
        3, 10, 43, 25, 39,
        41, 45, 15, 21, 8,
        18, 2, 61, 56, 14,
    ]

    private static let roundConstants: [UInt64] = [
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
        0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
    ]
}
