import LedgerlyInterchange
import Testing

@Suite struct CSVReaderTests {
    private func read(_ text: String, _ delimiter: CSVDelimiter = .comma, skipLines: Int = 0) throws -> [CSVRecord] {
        try CSVReader.records(in: text, delimiter: delimiter, skipLines: skipLines)
    }

    private func readError(_ text: String, _ delimiter: CSVDelimiter = .comma) -> BankStatementError? {
        do {
            _ = try CSVReader.records(in: text, delimiter: delimiter)
            return nil
        } catch {
            return error
        }
    }

    @Test func plainRecordsCarryTheirLine() throws {
        let records = try read("a,b,c\n1,2,3\n4,5,6\n")
        #expect(records == [
            CSVRecord(line: 1, fields: ["a", "b", "c"]),
            CSVRecord(line: 2, fields: ["1", "2", "3"]),
            CSVRecord(line: 3, fields: ["4", "5", "6"]),
        ])
    }

    @Test func quotedFieldsWithDelimitersQuotesAndNewlines() throws {
        let text = "date,description,amount\n"
            + "2026-01-02,\"Shop, Berlin\",1\n"
            + "2026-01-03,\"He said \"\"hi\"\"\n"
            + "second line\n"
            + "third line\",2\n"
            + "2026-01-04,\"\",3\n"
        let records = try read(text)
        #expect(records.map(\.line) == [1, 2, 3, 6])
        #expect(records[1].fields == ["2026-01-02", "Shop, Berlin", "1"])
        #expect(records[2].fields == ["2026-01-03", "He said \"hi\"\nsecond line\nthird line", "2"])
        #expect(records[3].fields == ["2026-01-04", "", "3"])
    }

    @Test func crlfLoneCRByteOrderMarkAndBlankLines() throws {
        let text = "\u{FEFF}a;b\r\n\r\n1;\"x\r\ny\"\r\n\n2;z\r3;w"
        let records = try read(text, .semicolon)
        #expect(records == [
            CSVRecord(line: 1, fields: ["a", "b"]),
            CSVRecord(line: 3, fields: ["1", "x\r\ny"]),
            CSVRecord(line: 6, fields: ["2", "z"]),
            CSVRecord(line: 7, fields: ["3", "w"]),
        ])
    }

    @Test func tabDelimiterTrailingEmptyFieldAndStrayQuote() throws {
        let records = try read("a\tb\t\n5\" screen\t\"q\"  \tx", .tab)
        #expect(records == [
            CSVRecord(line: 1, fields: ["a", "b", ""]),
            CSVRecord(line: 2, fields: ["5\" screen", "q", "x"]),
        ])
    }

    @Test func skippedLinesCountTowardLineNumbers() throws {
        let text = "Account: \"Main\nPeriod: March\n\ndate,amount\n2026-03-01,5\n"
        let records = try read(text, skipLines: 3)
        #expect(records == [
            CSVRecord(line: 4, fields: ["date", "amount"]),
            CSVRecord(line: 5, fields: ["2026-03-01", "5"]),
        ])
    }

    @Test func unterminatedQuoteNamesTheLineWhereItStarted() {
        let error = readError("a,b\n1,2\n3,\"never\nclosed\nat all\n")
        #expect(error?.line == 3)
        #expect(error?.description.contains("closing quote is missing") == true)
    }

    @Test func textAfterAClosingQuoteIsAnError() {
        let error = readError("a,b\n\"x\"y,2\n")
        #expect(error?.line == 2)
    }

    @Test func streamingReaderStopsWhereAsked() throws {
        var reader = CSVReader(text: "h1,h2\n1,2\n3,\"unterminated\n")
        #expect(try reader.next() == CSVRecord(line: 1, fields: ["h1", "h2"]))
        #expect(try reader.next() == CSVRecord(line: 2, fields: ["1", "2"]))
        #expect(throws: BankStatementError.self) { try reader.next() }
    }
}
