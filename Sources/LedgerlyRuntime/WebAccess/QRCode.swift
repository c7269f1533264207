/// A QR code (ISO/IEC 18004) of a short text, for `ledgerly web pair` to show the address a phone
/// opens (D595): byte mode, versions 1 to 10 (up to 213 bytes at level M), error correction
/// level L or M, the mask chosen by the standard's penalty rules. Small on purpose: no listed
/// package draws QR codes, and the pairing address is some thirty bytes.
public struct QRCode: Sendable, Equatable {
    public enum Correction: Sendable {
        /// About 7 % of the symbol can be lost.
        case low
        /// About 15 %: what `ledgerly web pair` uses (a phone's camera on a screen).
        case medium

        /// The two format bits the standard gives each level.
        var formatBits: Int { self == .low ? 1 : 0 }
    }

    public let version: Int
    public let mask: Int
    /// Row by row, `true` for a dark module; `size` × `size`.
    public let modules: [[Bool]]
    public var size: Int { modules.count }

    /// The smallest version that holds `text` as UTF-8 bytes; nil when it needs more than version 10.
    /// `mask` forces a mask pattern (0...7) instead of the best by penalty (tests compare with a known symbol).
    public init?(_ text: String, correction: Correction = .medium, mask forcedMask: Int? = nil) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.blocks(version: $0, correction: correction).dataCodewords >= bytes.count + ($0 < 10 ? 2 : 3) }) else { return nil }
        let codewords = Self.codewords(for: bytes, version: version, correction: correction)
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        grid.drawCodewords(codewords)
        let chosen = forcedMask ?? (0..<8).min { grid.masked($0, correction: correction).penalty < grid.masked($1, correction: correction).penalty }!
        self.version = version
        self.mask = chosen
        self.modules = grid.masked(chosen, correction: correction).modules
    }

    // MARK: Data

    /// The error correction blocks of a version: how many blocks of how many data codewords, and
    /// how many correction codewords each block has (the standard's table 9, versions 1-10).
    struct Blocks {
        let correctionPerBlock: Int
        /// (number of blocks, data codewords in each), the shorter group first.
        let groups: [(count: Int, data: Int)]
        var dataCodewords: Int { groups.reduce(0) { $0 + $1.count * $1.data } }
    }

    static func blocks(version: Int, correction: Correction) -> Blocks {
        switch correction {
        case .medium:
            let table: [(Int, [(Int, Int)])] = [(10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
                                                (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)])]
            return Blocks(correctionPerBlock: table[version - 1].0, groups: table[version - 1].1.map { (count: $0.0, data: $0.1) })
        case .low:
            let table: [(Int, [(Int, Int)])] = [(7, [(1, 19)]), (10, [(1, 34)]), (15, [(1, 55)]), (20, [(1, 80)]), (26, [(1, 108)]),
                                                (18, [(2, 68)]), (20, [(2, 78)]), (24, [(2, 97)]), (30, [(2, 116)]), (18, [(2, 68), (2, 69)])]
            return Blocks(correctionPerBlock: table[version - 1].0, groups: table[version - 1].1.map { (count: $0.0, data: $0.1) })
        }
    }

    /// Mode, length, the bytes, terminator and padding, split into blocks, each block's
    /// Reed-Solomon codewords added, and all interleaved as the symbol carries them.
    static func codewords(for bytes: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let layout = blocks(version: version, correction: correction)
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) } }
        append(0b0100, 4)
        // The length takes 8 bits up to version 9, 16 from version 10.
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = layout.dataCodewords * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var data: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) } }
        var pad: UInt8 = 0xEC
        while data.count < layout.dataCodewords {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let divisor = ReedSolomon.divisor(degree: layout.correctionPerBlock)
        var blocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                blocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let corrections = blocks.map { ReedSolomon.remainder($0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<(blocks.map(\.count).max() ?? 0) {
            for block in blocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.correctionPerBlock {
            for block in corrections { result.append(block[index]) }
        }
        return result
    }

    /// Reed-Solomon over GF(256) with the QR polynomial x⁸+x⁴+x³+x²+1.
    enum ReedSolomon {
        static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
            var product = 0
            for shift in stride(from: 7, through: 0, by: -1) {
                product = (product << 1) ^ ((product >> 7) * 0x11D)
                product ^= Int((y >> UInt8(shift)) & 1) * Int(x)
            }
            return UInt8(product)
        }

        /// The generator polynomial's coefficients, highest first, its leading 1 left out.
        static func divisor(degree: Int) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: degree)
            result[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for index in 0..<degree {
                    result[index] = multiply(result[index], root)
                    if index + 1 < degree { result[index] ^= result[index + 1] }
                }
                root = multiply(root, 0x02)
            }
            return result
        }

        static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: divisor.count)
            for byte in data {
                let factor = byte ^ result.removeFirst()
                result.append(0)
                for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
            }
            return result
        }
    }
}

// MARK: - Terminal

extension QRCode {
    /// The symbol as lines of text, two module rows per line in half blocks (▀ ▄ █), with a quiet
    /// zone of four modules. `colored` paints black on white with ANSI colours, right on any
    /// terminal theme; without colours a block is a dark module (right on a light background).
    public func terminalLines(colored: Bool) -> [String] {
        let quiet = 4
        let extent = size + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let r = row - quiet, c = column - quiet
            return r >= 0 && c >= 0 && r < size && c < size && modules[r][c]
        }
        return stride(from: 0, to: extent, by: 2).map { row in
            let line = String((0..<extent).map { column -> Character in
                switch (dark(row, column), dark(row + 1, column)) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
            })
            return colored ? "\u{1B}[30;47m\(line)\u{1B}[0m" : line
        }
    }
}
