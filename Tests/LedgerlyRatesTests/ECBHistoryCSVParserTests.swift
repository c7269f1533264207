import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

@Suite struct ECBHistoryCSVParserTests {
    let parser = ECBHistoryCSVParser()

    /// The sample is the real header, the newest 40 rows and the 3 oldest (1999) rows.
    @Test func countsRowsCurrenciesAndSkippedCells() throws {
        let data = try Fixture.data("eurofxref-hist-sample.csv")
        let reader = try parser.days(in: data)
        #expect(reader.currencies.count == 41)
        #expect(reader.currencies.prefix(3) == ["USD", "JPY", "BGN"])
        #expect(reader.currencies.last == "ZAR")

        var days: [ECBHistoryCSVParser.Day] = []
        try parser.forEachDay(in: data) { days.append($0) }
        #expect(days.count == 43)
        #expect(days.first?.date.description == "2026-10-30")
        #expect(days[39].date.description == "2026-09-07")
        #expect(days.last?.date.description == "1999-01-04")
        // 43 rows × 41 columns, of which 522 cells are "N/A" and skipped.
        #expect(days.map(\.rates.count).reduce(0, +) == 1241)
        #expect(days.first?.rates.count == 29)
        #expect(days.last?.rates.count == 27)
        #expect(try parser.parse(data).count == 1241)
    }

    @Test(arguments: [
        ("2026-10-30", "USD", "1.1172"), ("2026-10-30", "JPY", "175.68"), ("2026-10-30", "GBP", "0.8338"), ("2026-10-30", "ISK", "136"),
        ("2026-10-29", "USD", "1.113"), ("2026-09-07", "JPY", "179.85"),
        ("1999-01-04", "USD", "1.1789"), ("1999-01-04", "JPY", "133.73"), ("1999-01-04", "CYP", "0.58231"), ("1999-01-04", "TRL", "372274"),
    ])
    func exactRealValues(date: String, quote: String, value: String) throws {
        let rates = try parser.parse(Fixture.data("eurofxref-hist-sample.csv"))
        let found = try #require(rate(rates, "EUR", quote, on: date))
        #expect(found.rate.decimalString == value)
        #expect(found.rate.value == Decimal(string: value))
    }

    /// "N/A" means the ECB had no rate that day (BGN before 2000, CYP after 2007, RUB since 2022):
    /// the cell is skipped, not turned into a rate and not an error.
    @Test func notAvailableCellsAreSkipped() throws {
        let rates = try parser.parse(Fixture.data("eurofxref-hist-sample.csv"))
        let oldest = rates.filter { $0.date?.description == "1999-01-04" }
        #expect(!oldest.contains { $0.quote == "BGN" || $0.quote == "RON" || $0.quote == "TRY" })
        let newest = rates.filter { $0.date?.description == "2026-10-30" }
        #expect(!newest.contains { $0.quote == "CYP" || $0.quote == "RUB" || $0.quote == "BGN" || $0.quote == "HRK" })
        #expect(newest.contains { $0.quote == "USD" })
    }

    /// The byte-level number reader must give exactly what the core's `ExchangeRate(parsing:)`
    /// gives for every cell of the real file: same value, same text.
    @Test func fastNumbersMatchTheCoreParser() throws {
        let text = try Fixture.text("eurofxref-hist-sample.csv")
        let lines = text.split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var expected: [ProviderRate] = []
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let date = try #require(LedgerDate(fields[0]))
            for (code, cell) in zip(header.dropFirst(), fields.dropFirst()) where !code.isEmpty && cell != "N/A" {
                expected.append(ProviderRate(base: "EUR", quote: code, rate: try ExchangeRate(parsing: cell), date: date))
            }
        }
        let parsed = try parser.parse(Data(text))
        #expect(parsed == expected)
        #expect(parsed.map(\.rate.decimalString) == expected.map(\.rate.decimalString))
        #expect(Set(parsed).count == expected.count)
    }

    @Test func readsTheRealDailyCSV() throws {
        let rates = try parser.parse(Fixture.data("eurofxref-daily.csv"))
        #expect(rates.count == 29)
        #expect(rates.allSatisfy { $0.date?.description == "2026-10-30" })
        #expect(rate(rates, "EUR", "USD")?.rate.decimalString == "1.1172")
        #expect(rate(rates, "EUR", "GBP")?.rate.decimalString == "0.8338")
        #expect(rate(rates, "EUR", "ISK")?.rate.decimalString == "136")
    }

    @Test func readerReportsLines() throws {
        var reader = try parser.days(in: Data("Date,USD,JPY,\n\n2026-10-30,1.1172,175.68,\r\n2026-10-29,1.113,N/A,\n"))
        #expect(reader.line == 1)
        #expect(try reader.next()?.rates.count == 2)
        #expect(reader.line == 3)
        #expect(try reader.next()?.rates.map(\.quote) == ["USD"])
        #expect(reader.line == 4)
        #expect(try reader.next() == nil)
    }

    static let header = "Date,USD,JPY,GBP,\n"

    @Test(arguments: [
        ("2026-10-30,1.1172,-175.68,0.8338,\n", ProviderError.badRate(.ecbCSV, pair: "EUR/JPY", value: "-175.68", at: .line(2), reason: .notPositive("-175.68"))),
        ("2026-10-30,1.1172,175.68,0,\n", .badRate(.ecbCSV, pair: "EUR/GBP", value: "0", at: .line(2), reason: .notPositive("0"))),
        ("2026-10-30,1.1172,175.68,0.0000,\n", .badRate(.ecbCSV, pair: "EUR/GBP", value: "0.0000", at: .line(2), reason: .notPositive("0.0000"))),
        ("2026-10-30,1.11.72,175.68,0.8338,\n", .badRate(.ecbCSV, pair: "EUR/USD", value: "1.11.72", at: .line(2), reason: .malformed("1.11.72"))),
        ("2026-10-30,1e3,175.68,0.8338,\n", .badRate(.ecbCSV, pair: "EUR/USD", value: "1e3", at: .line(2), reason: .malformed("1e3"))),
        ("2026-10-30,n/a,175.68,0.8338,\n", .badRate(.ecbCSV, pair: "EUR/USD", value: "n/a", at: .line(2), reason: .malformed("n/a"))),
        ("2026-10-30,0.0000000000001,175.68,0.8338,\n", .badRate(.ecbCSV, pair: "EUR/USD", value: "0.0000000000001", at: .line(2), reason: .outOfRange("0.0000000000001"))),
        ("2026-10-30,1.12345678901234567890,175.68,0.8338,\n", .badRate(.ecbCSV, pair: "EUR/USD", value: "1.12345678901234567890", at: .line(2), reason: .tooPrecise("1.12345678901234567890"))),
        ("2026-10-30,1.1172,175.68,\n", .malformed(.ecbCSV, detail: "the row has 4 fields, the header 5 (cut-off or shifted row?)", at: .line(2))),
        ("2026-10-30,1.1172,175.68,0.8338,\n2026-10-29,1.113,175.92,0.83", .malformed(.ecbCSV, detail: "the row has 4 fields, the header 5 (cut-off or shifted row?)", at: .line(3))),
        ("2026-10-30,1.1172,175.68,0.8338,7,\n", .malformed(.ecbCSV, detail: "the row has 6 fields, the header 5 (cut-off or shifted row?)", at: .line(2))),
        ("2026-10-30,1.1172,175.68,0.8338,\n2026-10-30,1.1172,175.68,0.8338,\n", .duplicate(.ecbCSV, pair: "the row", date: "2026-10-30", at: .line(3))),
        ("2026-02-30,1.1172,175.68,0.8338,\n", .badDate(.ecbCSV, value: "2026-02-30", at: .line(2))),
        ("", .noRates(.ecbCSV)),
        ("2026-10-30,N/A,N/A,N/A,\n", .noRates(.ecbCSV)),
    ])
    func refusesBadRows(rows: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(Self.header + rows)) } == expected)
    }

    @Test(arguments: [
        ("Datum,USD,\n2026-10-30,1.1,\n", ProviderError.notFormat(.ecbCSV, reason: "the first header column is 'Datum', expected 'Date'")),
        ("Date,US$,\n2026-10-30,1.1,\n", .unknownCurrency(.ecbCSV, code: "US$", at: .line(1))),
        ("Date,USD,USD,\n2026-10-30,1.1,1.1,\n", .malformed(.ecbCSV, detail: "USD appears twice in the header", at: .line(1))),
        ("Date,,USD,\n2026-10-30,,1.1,\n", .malformed(.ecbCSV, detail: "header column 2 has no currency", at: .line(1))),
        ("Date,\n2026-10-30,\n", .notFormat(.ecbCSV, reason: "the header names no currencies")),
    ])
    func refusesBadHeaders(text: String, expected: ProviderError) {
        #expect(providerError { () throws(ProviderError) in try parser.parse(Data(text)) } == expected)
    }

    /// A stream consumer's own error comes back unchanged, and no later day is handed out.
    @Test func forEachDayRethrowsTheConsumersError() throws {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try parser.forEachDay(in: Fixture.data("eurofxref-hist-sample.csv")) { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }

    /// A full-size history (7,126 days × 41 currencies, like the real file) built from the
    /// sample's real rows under consecutive dates; checks the streaming path end to end.
    @Test func readsAFullSizeHistory() throws {
        let text = try Fixture.text("eurofxref-hist-sample.csv")
        let lines = text.split(separator: "\n")
        var document = String(lines[0]) + "\n"
        var day = try #require(LedgerDate("2026-10-30"))
        let rows = lines.dropFirst().map { $0.drop(while: { $0 != "," }) }
        for index in 0..<7_126 {
            document += day.description + rows[index % rows.count] + "\n"
            day = Self.previous(day)
        }
        var days = 0
        var cells = 0
        try parser.forEachDay(in: Data(document)) { days += 1; cells += $0.rates.count }
        #expect(days == 7_126)
        #expect(cells > 200_000)
    }

    static func previous(_ date: LedgerDate) -> LedgerDate {
        var (year, month, day) = (date.year, date.month, date.day - 1)
        if day == 0 {
            month -= 1
            if month == 0 { (year, month) = (year - 1, 12) }
            day = LedgerDate.daysIn(month: month, year: year)
        }
        return LedgerDate(String(format: "%04d-%02d-%02d", year, month, day))!
    }
}
