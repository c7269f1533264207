import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct QIFStatementReaderTests {
    @Test func aBankQIFIsReadWithItsDateFormatToldFromTheDates() throws {
        let statement = try QIFStatementReader.parse(text: StatementFixtures.qif, dateFormat: nil, currency: "USD")
        #expect(statement.currency == nil)
        let rows = statement.rows
        #expect(rows.map(\.date) == ["2026-11-03", "2026-11-05", "2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(rows.map(\.amount) == ["1234.50", "2500.00", "84.30", "12.00", "100.00"])
        #expect(rows.map(\.kind) == [.expense, .income, .expense, .expense, .expense])
        #expect(rows.map(\.description) == ["Landlord LLC Rent November #1001", "ACME Corp", "Supermarket", "Cinema", "To savings"])
        #expect(rows.map(\.sourceCategory) == ["Housing", "Work:Salary", nil, "Fun", "[Savings]"])
        #expect(rows[3].tags == ["Holiday"])
        #expect(rows[2].splits == [
            BankStatementSplit(line: 18, category: "Food:Groceries", memo: "Vegetables", amount: "-60.00"),
            BankStatementSplit(line: 21, category: "Household", memo: "", amount: "-24.30"),
        ])
        #expect(rows.map(\.line) == [2, 10, 15, 24, 29])
    }

    @Test func ambiguousDatesAreRefusedUntilTheFormatIsGiven() throws {
        let text = "!Type:Cash\nD03.04.2026\nT-5.00\nPBakery\n^\nD05.04.2026\nT-2.00\nPKiosk\n^\n"
        #expect(throws: BankStatementError.self) { try QIFStatementReader.parse(text: "!Type:Bank\nD03/04/2026\nT-5.00\n^\n", dateFormat: nil, currency: "EUR") }
        do {
            _ = try QIFStatementReader.parse(text: "!Type:Bank\nD03/04/2026\nT-5.00\n^\n", dateFormat: nil, currency: "EUR")
        } catch {
            #expect(error.description == "the dates are ambiguous: \"03/04/2026\" reads as 2026-03-04 with M/D/YYYY and as 2026-04-03 with D/M/YYYY; give the format with --date-format")
        }
        // D.M.YYYY is the only dotted pattern, so a dotted file is not ambiguous.
        #expect(try QIFStatementReader.parse(text: text, dateFormat: nil, currency: "EUR").rows.map(\.date) == ["2026-04-03", "2026-04-05"])
        let given = try QIFStatementReader.parse(text: "!Type:Bank\nD03/04/2026\nT-5.00\n^\n", dateFormat: "D/M/YYYY", currency: "EUR")
        #expect(given.rows.map(\.date) == ["2026-04-03"])
    }

    @Test(arguments: [
        ("!Type:Invst\nD1/2/2026\nNBuy\n^\n", "the file has no !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L section (passed over: line 1: section !Type:Invst skipped (1 record): an investment account: its buys, sells and dividends are not bank transactions (import trades with `ledgerly invest import`))"),
        ("!Type:Bank\nD1/2/2026\nT-1.00\n^\n!Type:Foo\nD1/3/2026\n^\n", "line 5: \"!Type:Foo\" is not a section this reader takes (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L)"),
        ("D1/2/2026\nT-1.00\n^\n", "line 1: \"D1/2/2026\" comes before any !Type: line: a QIF file starts with one (e.g. !Type:Bank)"),
        ("!Type:Bank\nD1/2/2026\nT-1.00\n", "line 2: the record starting here never ends (no ^ before the end of the file)"),
        ("!Type:Bank\nD1/20/2026\nT-1.0x\n^\n", "line 3: amount \"-1.0x\" in T is not a number (decimal separator \".\", no thousands separator)"),
        ("!Type:Bank\nD1/20/2026\nT-10.00\nSA\n$-4.00\nSB\n$-5.00\n^\n", "line 2: the split amounts add up to -9.00 but T is -10.00"),
        ("!Type:Bank\nD13/13/2026\nT-1.00\n^\n", "line 2: date \"13/13/2026\" is in no known format: give the dates' format with --date-format (e.g. M/D/YYYY, D.M.YYYY, M/D'YY)"),
        // The date named is the one that is rejected, not the first of the file.
        ("!Type:Bank\nD1/20/2026\nT-1.00\n^\nD1/21/2026\nT-1.00\n^\nD1/2x/2026\nT-1.00\n^\n",
         "line 8: date \"1/2x/2026\" is in no known format: give the dates' format with --date-format (e.g. M/D/YYYY, D.M.YYYY, M/D'YY)"),
        ("!Type:Bank\nD1/2/2026\nT-1.00\n^\n!Type:CCard\nD1/3/2026\nT-1.00\n^\n", "line 5: a second account's transactions start here (\"!Type:CCard\"): export one account per file"),
    ])
    func malformedFilesAreRefusedNamingTheLine(text: String, message: String) {
        do {
            let statement = try QIFStatementReader.parse(text: text, dateFormat: nil, currency: "EUR")
            Issue.record("read \(statement.rows.count) rows")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func accountBlocksAndCategoryListsArePassedOver() throws {
        let text = "!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\n!Clear:AutoSwitch\n!Type:Cat\nNFood\nE\n^\n!Type:Bank\nD1/2/2026\nT-1.00\nPShop\n^\n"
        let statement = try QIFStatementReader.parse(text: text, dateFormat: "M/D/YYYY", currency: "EUR")
        #expect(statement.account == "Checking")
        #expect(statement.rows.map(\.description) == ["Shop"])
    }
}

extension QIFStatementReaderTests {
    /// Quicken writes `'YY` for 20YY; `/YY` is read in the window around today (1946–2045 in
    /// 2026), so Intuit's own example `D6/12/95` is still 1995.
    @Test func twoDigitYearsFollowQuickensSeparator() throws {
        let nineties = "!Type:Bank\nD6/12/95\nT-5.00\nPBakery\n^\nD6/25/95\nT-2.00\nPKiosk\n^\n"
        #expect(try QIFStatementReader.parse(text: nineties, dateFormat: nil, currency: "USD", currentYear: 2026).rows.map(\.date) == ["1995-06-12", "1995-06-25"])
        #expect(try QIFStatementReader.parse(text: nineties, dateFormat: "M/D/YY", currency: "USD", currentYear: 2026).rows.map(\.date) == ["1995-06-12", "1995-06-25"])
        // A file across the year 2000 has both separators, whichever pattern names.
        let millennium = "!Type:Bank\nD12/31/99\nT-5.00\nPBakery\n^\nD1/ 1'00\nT-2.00\nPKiosk\n^\nD2/29'00\nT-1.00\nPLeap\n^\n"
        for pattern in [nil, "M/D/YY", "M/D'YY"] {
            let dates = try QIFStatementReader.parse(text: millennium, dateFormat: pattern, currency: "USD", currentYear: 2026).rows.map(\.date)
            #expect(dates == ["1999-12-31", "2000-01-01", "2000-02-29"], "\(pattern ?? "guessed")")
        }
        // `/00` is 2000 in the window (it was 1900, which had no 29 February).
        #expect(try QIFStatementReader.parse(text: "!Type:Bank\nD2/29/00\nT-5.00\n^\n", dateFormat: "M/D/YY", currency: "USD", currentYear: 2026).rows.map(\.date) == ["2000-02-29"])
        // CSV keeps its rule: YY is 20YY whatever the separator.
        #expect(try BankCSVDateFormat("M/D/YY").date(from: "6/12/95") == LedgerDate("2095-06-12"))
    }
}

extension QIFStatementReaderTests {
    /// Quicken's other headers: options of any name, asset and liability accounts (read as a
    /// bank account is), and lists that hold no transactions, passed over.
    @Test func otherAccountsOptionsAndListsAreTaken() throws {
        for type in ["Oth A", "Oth L"] {
            let text = "!Option:MDY\n!Clear:UseSmartScan\n!Type:Security\nNApple\nSAAPL\n^\n!Type:Prices\n\"AAPL\",123.45,\" 1/ 2'26\"\n^\n!Type:Tag\nNHoliday\n^\n!Type:Bill\nPPower\n^\n!Type:Invoice\nPBob\n^\n!Type:\(type)\nD1/2/2026\nT-1.00\nPShop\n^\n"
            let statement = try QIFStatementReader.parse(text: text, dateFormat: "M/D/YYYY", currency: "EUR")
            #expect(statement.rows.map(\.description) == ["Shop"], "\(type)")
        }
    }
}

extension QIFStatementReaderTests {
    /// A split part is `S`, `E`, `$` and ends at its `$`: an `E` after it belongs to the next part.
    @Test func aSplitPartEndsAtItsAmount() throws {
        let text = "!Type:Bank\nD1/2/2026\nT-9.00\nSA\n$-4.00\nEfor B\nSB\n$-5.00\n^\n"
        let splits = try QIFStatementReader.parse(text: text, dateFormat: "M/D/YYYY", currency: "EUR").rows[0].splits
        #expect(splits == [
            BankStatementSplit(line: 4, category: "A", memo: "", amount: "-4.00"),
            BankStatementSplit(line: 6, category: "B", memo: "for B", amount: "-5.00"),
        ])
    }
}
