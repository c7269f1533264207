@testable import LedgerlyRuntime
import Testing

/// The QR encoder `ledgerly web pair` draws the address with (D595), against symbols made by an
/// independent encoder (Python's qrcode 8.2, byte mode, the same version and mask forced) and the
/// standard's worked Reed-Solomon example. (segno 1.6.6 was not used: it adds a pad byte of zeros
/// where the standard adds none, so its symbols differ from here on, though both decode.)
@Suite struct QRCodeTests {
    static func picture(_ code: QRCode) -> [String] {
        code.modules.map { String($0.map { $0 ? "#" : "." }) }
    }

    /// Version 2-M, mask 3: finders, timing, one alignment pattern, format bits, data.
    @Test func aShortAddressMatchesAKnownSymbol() throws {
        let code = try #require(QRCode("https://10.0.0.2:8470/pair", correction: .medium, mask: 3))
        #expect(code.version == 2)
        #expect(Self.picture(code) == [
            "#######.##...##...#######",
            "#.....#.#.#.#.#...#.....#",
            "#.###.#......#.##.#.###.#",
            "#.###.#.#..###..#.#.###.#",
            "#.###.#..##.#..#..#.###.#",
            "#.....#..#.#.##.#.#.....#",
            "#######.#.#.#.#.#.#######",
            "........#.#.#.##.........",
            "#.##.###..###.....#..#.##",
            "#......#.##.#.#..#.....#.",
            ".#.#..##..#..#...#.##....",
            ".###....##.#####...#.##..",
            ".###.###....##....###.###",
            "....#...#..#...#.##.#...#",
            ".###..###....#..###.#.##.",
            "#.####.###.##..#...##...#",
            "....###.#.#####.#########",
            "........##.##..##...#.#.#",
            "#######.#....##.#.#.#.###",
            "#.....#.####....#...#..##",
            "#.###.#....#..#.######..#",
            "#.###.#.####..###.#.#####",
            "#.###.#.#..##.###.#.#.##.",
            "#.....#...#..#......#.#..",
            "#######.#...####..#######",
        ])
    }

    /// Version 7-M, mask 1: two blocks per group, six alignment patterns and the version bits.
    @Test func aLongAddressMatchesAKnownSymbolWithVersionBits() throws {
        let code = try #require(QRCode("https://[fd12:3456:789a:1::1]:8470/pair?device=a-phone-on-the-home-network-with-a-rather-long-name-1234567-abcdefghij", correction: .medium, mask: 1))
        #expect(code.version == 7)
        #expect(Self.picture(code) == [
            "#######.#.#.#....#..#....##.####....#.#######",
            "#.....#..#.#..#####..#....#..##.#..#..#.....#",
            "#.###.#.#....#.####.#.##..##.###.#.#..#.###.#",
            "#.###.#..#.##.#..#.#..#.##.#.##....##.#.###.#",
            "#.###.#...##.###.#..#####.###.#...###.#.###.#",
            "#.....#.#..###.#....#...#.#...##.#....#.....#",
            "#######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######",
            "............#..#.#.##...##.###.##.#..........",
            "#.#...##..##.#..#########..##...#......#..#.#",
            "...#.#.##....#####....#.#...##.#.#.#...###.##",
            "##.######.#..#.#...####.#..#.#...#.##..####.#",
            "...##.......##.#.#.###.#..#.###.####....#....",
            "#.##..##...###...###.#.#.##.#.#.#....##.#..#.",
            "#......#...#...#.####.#.##...#.#.#...#.#..#.#",
            "##..###....#..#..#.#.#..##..##.#.#.#.#...####",
            "##.#.....#.#.#.##..#.....##.#..###...##.##.##",
            "..##..#..###....#.#.###.#.#.#..##...#.####..#",
            "##.###..##..#..##.###...##.#....##.#.#.#.##.#",
            ".#.#.###.######.......###......###...#..#.#.#",
            "###.#..#..#..#..####...#.#.###.##..###.###.#.",
            "#.#########.#..##.#.######..#.###...######...",
            ".#.##...##..##....#.#...##.#....#..##...##.##",
            "###.#.#.#...#.......#.#.##......#..##.#.#####",
            ".#.##...#.##.##.#.###...#.###.#.##..#...##...",
            "..##########..#.....#########.####..#####..#.",
            "..#.##.#...####....#.###....##.###...#.#.#..#",
            "#..#####.###.##..#.##.......#..#.#.#.##.....#",
            "..#.#..##...#....###.##..##.#...##.##.###..#.",
            "#..####..#.#..#.##....#.#...#.#.####.#......#",
            "##.#.#..#...###.###...#..#.###..##..#.##.##.#",
            "..##.#####....#.##.#..##.#.###..##.#.####...#",
            ".##....#.###.##.###..#.#....##.######.#..#..#",
            "##.####.#..#..##..###.####.######..#.###.#...",
            "#.......#..#....#..#.##.##.....#.#...#.#.##.#",
            "....#.##.#.#.##.#####....#.#...##...#.#.##.##",
            ".####..##..#..#...##..##.#..######.#..#..#.#.",
            "#..##.##.######.#########..##.############..#",
            "........##.#.#.###..#...##.#.#.#...##...##.##",
            "#######.##....#.###.#.#.##.###..#...#.#.#####",
            "#.....#.......#.....#...#.####..##.##...##..#",
            "#.###.#....###.....######.#####.###.#####..#.",
            "#.###.#..#....###...####.#.#.#..#..####.#..##",
            "#.###.#.###..##..##..#####..##.##..###..###.#",
            "#.....#...#.####...##.#.###.#..###.#.#.#.....",
            "#######.###..#.##.####..##..##..#.#..#...#..#",
        ])
    }

    /// Level L has its own format bits and block table.
    @Test func levelLMatchesAKnownSymbol() throws {
        let code = try #require(QRCode("https://10.0.0.2:8470/pair", correction: .low, mask: 6))
        #expect(code.version == 2)
        #expect(Self.picture(code) == [
            "#######.####....#.#######",
            "#.....#....####...#.....#",
            "#.###.#..#.#.#..#.#.###.#",
            "#.###.#...##.###..#.###.#",
            "#.###.#...###.....#.###.#",
            "#.....#..#.#..#.#.#.....#",
            "#######.#.#.#.#.#.#######",
            "........##..####.........",
            "##.##.#..#..#..#..#.....#",
            "####......#....###..####.",
            "#..##.#.##..##.#.#####..#",
            "...##..##.....##.##..####",
            "#..####.###.#.#.###.....#",
            "#......#.##.##.#...##..#.",
            "##.#######..##.###..#####",
            "#..#.....#.##.#.#..#.##.#",
            "#.#..##.#.##.########.##.",
            "........#....#.##...#.##.",
            "#######..###....#.#.#...#",
            "#.....#...#.##..#...#....",
            "#.###.#.##.##.#######....",
            "#.###.#.##.#......#....##",
            "#.###.#...##..#.#...#####",
            "#.....#.##.##....####.###",
            "#######.#####..####..#..#",
        ])
    }

    /// ISO/IEC 18004's "HELLO WORLD" 1-M codewords and their ten correction codewords.
    @Test func reedSolomonMatchesTheStandardsExample() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRCode.ReedSolomon.remainder(data, divisor: QRCode.ReedSolomon.divisor(degree: 10)) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func theMaskIsChosenAndTooLongATextIsRefused() throws {
        let code = try #require(QRCode("https://192.168.1.20:8470/pair"))
        #expect((0..<8).contains(code.mask))
        #expect(code.size == 17 + 4 * code.version)
        #expect(QRCode(String(repeating: "x", count: 300)) == nil)
        let lines = code.terminalLines(colored: false)
        #expect(lines.count == (code.size + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 8 })
    }

    /// Two module rows per line in half blocks, read back, are the symbol inside a quiet zone of four.
    @Test func theTerminalLinesDrawTheSymbolWithItsQuietZone() throws {
        let code = try #require(QRCode("https://10.0.0.2:8470/pair"))
        let extent = code.size + 8
        var drawn = Array(repeating: Array(repeating: false, count: extent), count: extent + 1)
        for (index, line) in code.terminalLines(colored: false).enumerated() {
            for (column, character) in line.enumerated() {
                drawn[2 * index][column] = character == "█" || character == "▀"
                drawn[2 * index + 1][column] = character == "█" || character == "▄"
            }
        }
        let expected = (0..<extent).map { row in
            (0..<extent).map { column in (4..<code.size + 4).contains(row) && (4..<code.size + 4).contains(column) && code.modules[row - 4][column - 4] }
        }
        #expect(Array(drawn.prefix(extent)) == expected)
        #expect(code.terminalLines(colored: true).allSatisfy { $0.hasPrefix("\u{1B}[30;47m") && $0.hasSuffix("\u{1B}[0m") })
    }
}
