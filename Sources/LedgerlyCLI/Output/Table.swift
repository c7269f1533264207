import LedgerlyCore

/// A plain aligned text table: left-aligned text, right-aligned numbers, two spaces between
/// columns. Widths are terminal columns (`DisplayWidth`: `日本食` takes six) counted before
/// styling, so neither wide characters nor colours break alignment.
struct Table {
    enum Alignment { case left, right }

    struct Column {
        let title: String
        let alignment: Alignment
        init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    let columns: [Column]
    private var rows: [[(plain: String, styled: String)]] = []

    init(_ columns: [Column]) { self.columns = columns }

    /// Adds a row; `style` may decorate each cell (colors) after widths are measured.
    mutating func add(_ cells: [String], style: (Int, String) -> String = { $1 }) {
        rows.append(cells.enumerated().map { ($0.element, style($0.offset, $0.element)) })
    }

    func render(style: TerminalStyle = .standardOutput) -> String {
        var widths = columns.map { DisplayWidth.of($0.title) }
        let cellWidths = rows.map { $0.map { DisplayWidth.of($0.plain) } }
        for row in cellWidths {
            for (index, width) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], width) }
        }
        /// One line, built in a byte buffer: a padding `String` per cell joined with
        /// `joined(separator:)` cost about 1,750 instructions a cell, 3.0 M of a monthly category
        /// report's 38.5 M (1,700 cells; D390).
        func line(_ cells: [(plain: String, styled: String)], widths cellWidths: [Int]) -> String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(widths.reduce(2 * cells.count) { $0 + $1 } + 16)
            for (index, cell) in cells.enumerated() {
                if index > 0 { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
                let padding = repeatElement(UInt8(ascii: " "), count: max(0, widths[index] - cellWidths[index]))
                switch columns[index].alignment {
                case .left:
                    bytes.append(contentsOf: cell.styled.utf8)
                    if index < cells.count - 1 { bytes.append(contentsOf: padding) }
                case .right:
                    bytes.append(contentsOf: padding)
                    bytes.append(contentsOf: cell.styled.utf8)
                }
            }
            return String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces()
        }
        var output = style.bold(line(columns.map { ($0.title, $0.title) }, widths: columns.map { DisplayWidth.of($0.title) })) + "\n"
        for (row, rowWidths) in zip(rows, cellWidths) { output += line(row, widths: rowWidths) + "\n" }
        return output
    }
}

extension String {
    /// Drops the trailing spaces that are `Character`s of their own. Every line of every table
    /// goes through here, and stepping back one `Character` at a time (grapheme breaking from the
    /// end, often over a bar's block characters) cost more than the rest of a report's rendering
    /// (D273). So the run of trailing spaces is found in the UTF-8 bytes; every space in it is a
    /// `Character` of its own except, possibly, the first, which a prepended mark before it (such
    /// as U+0600) takes into its own `Character`: the last `Character` up to that space tells.
    func trimmingTrailingSpaces() -> String {
        let bytes = utf8
        var start = bytes.endIndex
        while start > bytes.startIndex, bytes[bytes.index(before: start)] == UInt8(ascii: " ") { start = bytes.index(before: start) }
        if start == bytes.endIndex { return self }
        // Both ends are next to an ASCII space, hence on scalar boundaries: the initializers succeed.
        let throughFirstSpace = String(bytes[..<bytes.index(after: start)])!
        return throughFirstSpace.last == " " ? String(bytes[..<start])! : throughFirstSpace
    }
}
