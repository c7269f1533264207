@testable import LedgerlyCLI
import Testing

/// `Table.render`: columns padded to their widest cell in terminal columns, two spaces apart,
/// numbers right-aligned, the last column and each line's end left without trailing spaces. The
/// expected lines are written out by hand, so they check the byte-buffer rendering (D390) against
/// the layout rather than against itself.
@Suite struct TableTests {
    @Test func cellsAreAlignedByTerminalColumnsAndLinesHaveNoTrailingSpaces() {
        var table = Table([.init("NAME"), .init("AMOUNT", .right), .init("NOTE")])
        table.add(["Café", "12.50", "lunch"])
        table.add(["日本食", "1200", ""])
        table.add(["Rent", "-900.00", "a longer note"])
        let expected = """
            NAME     AMOUNT  NOTE
            Café      12.50  lunch
            日本食     1200
            Rent    -900.00  a longer note

            """
        #expect(table.render(style: TerminalStyle(enabled: false)) == expected)
    }

    @Test func stylingDoesNotCountTowardsWidths() {
        var table = Table([.init("A"), .init("B", .right)])
        table.add(["x", "-1"]) { index, cell in index == 1 ? TerminalStyle(enabled: true).red(cell) : cell }
        table.add(["longer", "10"])
        let bold = { (text: String) in "\u{1B}[1m\(text)\u{1B}[0m" }
        let expected = bold("A        B") + "\n" + "x       \u{1B}[31m-1\u{1B}[0m\n" + "longer  10\n"
        #expect(table.render(style: TerminalStyle(enabled: true)) == expected)
    }

    /// A row shorter than the header is padded only as far as its own last cell.
    @Test func aShortRowEndsAtItsLastCell() {
        var table = Table([.init("WHEN"), .init("WHAT"), .init("TOTAL", .right)])
        table.add(["2026-01", "x"])
        #expect(table.render(style: TerminalStyle(enabled: false)) == "WHEN     WHAT  TOTAL\n2026-01  x\n")
    }
}
