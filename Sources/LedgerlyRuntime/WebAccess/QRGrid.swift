/// The module grid of a QR symbol while it is drawn (D595): the function patterns (finders,
/// timing, alignment, format and version areas), which the data and the mask leave alone, then
/// the codewords in the standard's zigzag, then one of the eight masks with its format bits.
struct QRGrid {
    let version: Int
    let size: Int
    private(set) var modules: [[Bool]]
    /// Modules of the function patterns.
    private var reserved: [[Bool]]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        reserved = modules
    }

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        reserved[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let centres = Self.alignmentCentres(version: version)
        for (i, cx) in centres.enumerated() {
            for (j, cy) in centres.enumerated() {
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(0, correction: .medium)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let dark = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3, b = index / 3
                set(a, b, dark)
                set(b, a, dark)
            }
        }
    }

    /// The alignment patterns' centre coordinates (the standard's annex E, versions 1-10).
    static func alignmentCentres(version: Int) -> [Int] {
        [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]][version - 1]
    }

    /// The 15 format bits (level and mask, BCH-protected, XOR 0x5412), both copies, and the dark module.
    mutating func drawFormatBits(_ mask: Int, correction: QRCode.Correction) {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// The codewords' bits, most significant first, up and down two columns at a time from the
    /// bottom right, skipping the function patterns and the vertical timing column.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !reserved[y][x], bitIndex < codewords.count * 8 {
                        modules[y][x] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                        bitIndex += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// A copy with mask `mask` applied to the data modules and its format bits drawn.
    func masked(_ mask: Int, correction: QRCode.Correction) -> QRGrid {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !reserved[y][x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { copy.modules[y][x].toggle() }
            }
        }
        copy.drawFormatBits(mask, correction: correction)
        return copy
    }

    /// The standard's penalty (runs of five or more, 2×2 blocks, finder-like runs, dark balance):
    /// the mask with the lowest is the one a reader finds easiest.
    var penalty: Int {
        var score = 0
        let columns = (0..<size).map { x in (0..<size).map { modules[$0][x] } }
        for line in modules + columns {
            var run = 1
            for index in 1..<size {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { score += run - 2 }
            let pattern: [Bool] = [true, false, true, true, true, false, true]
            for start in 0...(size - 7) where Array(line[start..<start + 7]) == pattern {
                let before = (max(0, start - 4)..<start).allSatisfy { !line[$0] } && start >= 4
                let after = (start + 7..<min(size, start + 11)).allSatisfy { !line[$0] } && start + 11 <= size
                if before || after { score += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y][x]
                if modules[y][x + 1] == colour, modules[y + 1][x] == colour, modules[y + 1][x + 1] == colour { score += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        score += (abs(dark * 20 - total * 10) + total - 1) / total * 10 - 10
        return score
    }
}
