/// Finding the header below a preamble whose length varies (a bank's account, period and balance
/// lines), for mappings with `findHeader`: the shipped ones and mapping files written from them.
extension BankCSVMapping {
    /// How far down the header is looked for: by `detect(text:)`, and by `findHeader` mappings
    /// (the header may be on any of the first `maximumPreambleLines + 1` lines).
    public static let maximumPreambleLines = 20

    /// The mapping with `skipLines` set to the lines before `text`'s header: the first record
    /// within the first `maximumPreambleLines + 1` lines with every column named here. Itself
    /// when it does not `findHeader`.
    public func locatingHeader(in text: String) throws(BankStatementError) -> BankCSVMapping {
        guard findHeader else { return self }
        let bytes = Array(text.utf8)
        let wanted = namedColumns.compactMap { column -> String? in
            if case .name(let name) = column.column { BankCSVColumn.normalized(name) } else { nil }
        }
        for skip in 0...Self.maximumPreambleLines {
            var reader = CSVReader(bytes: bytes, delimiter: delimiter, skipLines: skip)
            guard let record = try? reader.next() else { break }
            let names = Set(record.fields.map(BankCSVColumn.normalized))
            if wanted.allSatisfy(names.contains) {
                var found = self
                found.findHeader = false
                found.skipLines = record.line - 1
                return found
            }
        }
        let listed = wanted.map { "\"\($0)\"" }.joined(separator: ", ")
        throw BankStatementError(line: nil, "no header with the mapping's columns (\(listed)) in the first \(Self.maximumPreambleLines + 1) lines")
    }
}
