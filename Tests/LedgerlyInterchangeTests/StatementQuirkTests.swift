import Foundation
import LedgerlyCore
@testable import LedgerlyInterchange
import Testing

/// Real bank files read whole (issue 45, items 8–13): each quirk of `StatementQuirkFixtures`
/// read with its count and total, and what is passed over said, never lost in silence.
@Suite struct StatementQuirkTests {
    /// The sum of the rows, signed (expense negative), in minor units of two decimals.
    static func total(_ statement: BankStatement) -> Int64 {
        statement.rows.reduce(0) { sum, row in
            let minor = Int64(row.amount.filter { $0 != "." })!
            return sum + (row.kind == .expense ? -minor : minor)
        }
    }

    @Test func anOFXCardStatementWhoseTransactionListIsNeverClosedIsReadWhole() throws {
        for text in [StatementQuirkFixtures.ofxCardWithoutListEnd, StatementQuirkFixtures.ofxCardWithoutAnyEndTag] {
            let statement = try OFXStatementReader.parse(text: text)
            #expect(statement.rows.count == 3)
            #expect(statement.entries == 3)
            #expect(Self.total(statement) == -20936)
            #expect(statement.currency == "BRL")
            #expect(statement.account == "5555-CARD")
            #expect(statement.rows.map(\.description) == ["Padaria", "Mercado", "Farmacia"])
        }
        // Without the grammar's aggregates (as before), <BANKTRANLIST> was an empty leaf and the
        // transactions were not in it.
        let body = StatementQuirkFixtures.ofxCardWithoutListEnd[StatementQuirkFixtures.ofxCardWithoutListEnd.range(of: "<OFX>")!.lowerBound...]
        let tree = try MarkupReader.read(body, dialect: .sgml, grammar: OFXStatementReader.sgmlGrammar)
        #expect(tree.element(at: "CREDITCARDMSGSRSV1/CCSTMTTRNRS/CCSTMTRS/BANKTRANLIST")?.children("STMTTRN").count == 3)
        #expect(tree.element(at: "CREDITCARDMSGSRSV1/CCSTMTTRNRS/CCSTMTRS/LEDGERBAL/BALAMT")?.value == "-209.36")
    }

    /// A `STMTTRN` the reader cannot place in a statement's list refuses the file, naming it,
    /// instead of "no rows" and a successful exit.
    @Test func aTransactionOutsideAnyListIsRefusedNotLeftOut() throws {
        let text = StatementQuirkFixtures.ofxCardWithoutListEnd.replacingOccurrences(of: "<BANKTRANLIST>\n", with: "")
        #expect(throws: BankStatementError(line: 35, "3 of the file's 3 <STMTTRN> are not in a statement's <BANKTRANLIST> (the first here, inside <CCSTMTRS>): the file's structure was not understood, and importing the rest would leave them out")) {
            try OFXStatementReader.parse(text: text)
        }
    }

    /// A statement whose every transaction is left out still says how many it held, so that the
    /// CLI refuses it naming why (the notes) instead of "nothing to import".
    @Test func aStatementOfOnlyZeroTransactionsCountsItsEntries() throws {
        let zero = StatementQuirkFixtures.ofxCardWithoutListEnd
            .replacingOccurrences(of: "<TRNAMT>-13.00", with: "<TRNAMT>0.00")
            .replacingOccurrences(of: "<TRNAMT>-162.90", with: "<TRNAMT>0.00")
            .replacingOccurrences(of: "<TRNAMT>-33.46", with: "<TRNAMT>-0.00")
        let statement = try OFXStatementReader.parse(text: zero)
        #expect(statement.rows.isEmpty)
        #expect(statement.entries == 3)
        #expect(statement.notes == ["3 transactions of zero left out, on lines 39, 46, 53: a transaction of nothing cannot be recorded"])
    }

    /// A blank `<CURDEF>` (ofxparse's "empty tags" file) takes the one currency every
    /// transaction names, with a note; without one, the file is still refused.
    @Test func aBlankStatementCurrencyIsTheOneEveryTransactionNames() throws {
        let blank = StatementQuirkFixtures.ofxCardWithoutListEnd.replacingOccurrences(of: "<CURDEF>BRL", with: "<CURDEF></CURDEF>")
        let named = blank.replacingOccurrences(of: "<MEMO>", with: "<CURRENCY><CURRATE>1.0000<CURSYM>BRL</CURRENCY>\n<MEMO>")
        let statement = try OFXStatementReader.parse(text: named)
        #expect(statement.currency == "BRL")
        #expect(statement.rows.count == 3)
        #expect(Self.total(statement) == -20936)
        #expect(statement.notes == ["line 28: <CCSTMTRS> has no <CURDEF>; every transaction names BRL in <CURRENCY><CURSYM>, taken as the statement's currency"])
        #expect(throws: BankStatementError(line: 28, "<CCSTMTRS> has no <CURDEF> (the statement's currency)")) { try OFXStatementReader.parse(text: blank) }
        let mixed = named.replacingOccurrences(of: "<CURSYM>BRL</CURRENCY>\n<MEMO>Farmacia", with: "<CURSYM>USD</CURRENCY>\n<MEMO>Farmacia")
        #expect(throws: BankStatementError(line: 28, "<CCSTMTRS> has no <CURDEF> (the statement's currency)")) { try OFXStatementReader.parse(text: mixed) }
    }

    @Test func anXMLHeaderOverAnSGMLBodyIsRead() throws {
        let statement = try OFXStatementReader.parse(text: StatementQuirkFixtures.ofxXMLHeaderOverSGML)
        #expect(statement.rows.count == 2)
        #expect(Self.total(statement) == -4035)
        #expect(statement.currency == "AUD")
        #expect(statement.rows.map(\.date) == ["2026-11-10", "2026-11-12"])
        #expect(statement.rows.map(\.line) == [29, 36])
        // Lines are the file's, header included, when a field is refused.
        let bad = StatementQuirkFixtures.ofxXMLHeaderOverSGML.replacingOccurrences(of: "<TRNAMT>10.00", with: "<TRNAMT>10.0x")
        #expect(throws: BankStatementError(line: 39, "amount \"10.0x\" in <TRNAMT> is not a number (decimal separator \".\", no thousands separator)")) {
            try OFXStatementReader.parse(text: bad)
        }
        // Broken as SGML too: the XML reading's error is the one given.
        let broken = StatementQuirkFixtures.ofxXMLHeaderOverSGML.replacingOccurrences(of: "</CCSTMTTRNRS>\n", with: "</CCSTMTTRNRX>\n")
        #expect(throws: BankStatementError(line: 9, "the end tag </STATUS> does not match <SEVERITY> opened on line 8")) {
            try OFXStatementReader.parse(text: broken)
        }
    }

    @Test func aQIFsCommentsListsAndInvestmentSectionsArePassedOverWithNotes() throws {
        let statement = try QIFStatementReader.parse(text: StatementQuirkFixtures.qifWithCommentsAndInvestments, dateFormat: nil, currency: "USD", currentYear: 2026)
        #expect(statement.rows.count == 3)
        #expect(statement.entries == 4)
        #expect(Self.total(statement) == 244_550)
        #expect(statement.account == "Everyday")
        #expect(statement.rows.map(\.date) == ["2026-10-23", "2026-10-25", "2026-10-28"])
        #expect(statement.rows[2].splits == [
            BankStatementSplit(line: 37, category: "[Card]", memo: "", amount: "-31.00"),
            BankStatementSplit(line: 39, category: "Food:Lunch", memo: "", amount: "-17.00"),
        ])
        #expect(statement.notes == [
            "3 comment lines (#) skipped, on lines 1, 2, 33",
            "line 3: section !Type:Class skipped (1 record): a list (categories, classes, memorised transactions, securities, prices, tags, bills or invoices), not transactions",
            "line 7: section !Type:Cat skipped (2 records): a list (categories, classes, memorised transactions, securities, prices, tags, bills or invoices), not transactions",
            "line 42: section !Account skipped (1 record, \"Broker\"): an account's details, not transactions",
            "line 46: section !Type:Invst skipped (2 records): an investment account: its buys, sells and dividends are not bank transactions (import trades with `ledgerly invest import`)",
            "line 59: section !Type:Security skipped (1 record): a list (categories, classes, memorised transactions, securities, prices, tags, bills or invoices), not transactions",
            "1 record of zero left out, on line 20: a transaction of nothing cannot be recorded",
        ])
    }

    /// An `!Account` block before an investment section is that section's, not the bank
    /// section's after it: it is said as skipped, and does not name the account read.
    @Test func anAccountBlockOfAnInvestmentSectionIsSaidAsSkipped() throws {
        let text = "!Account\nNBroker\nTInvst\n^\n!Type:Invst\nD1/20/2026\nNBuy\n^\n!Type:Bank\nD1/21/2026\nT-5.00\nPShop\n^\n"
        let statement = try QIFStatementReader.parse(text: text, dateFormat: nil, currency: "EUR")
        #expect(statement.rows.map(\.amount) == ["5.00"])
        #expect(statement.account == nil)
        #expect(statement.notes == [
            "line 1: section !Account skipped (1 record, \"Broker\"): an account's details, not transactions",
            "line 5: section !Type:Invst skipped (1 record): an investment account: its buys, sells and dividends are not bank transactions (import trades with `ledgerly invest import`)",
        ])
    }

    /// A file of investments alone still has no bank section, and says what it passed over.
    @Test func aQIFOfInvestmentsAloneIsRefusedNamingWhatItHolds() throws {
        #expect(throws: BankStatementError(line: nil, "the file has no !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L section (passed over: line 1: section !Type:Invst skipped (1 record): an investment account: its buys, sells and dividends are not bank transactions (import trades with `ledgerly invest import`))")) {
            try QIFStatementReader.parse(text: "!Type:Invst\nD1/2/2026\nNBuy\n^\n", dateFormat: nil, currency: "EUR")
        }
    }

    @Test func aQIFRecordOfZeroIsLeftOutWithANote() throws {
        let text = "!Type:Bank\nD1/20/2026\nT0.00\nPOpening Balance\n^\nD1/21/2026\nT-5.00\nPShop\n^\n"
        let statement = try QIFStatementReader.parse(text: text, dateFormat: nil, currency: "EUR")
        #expect(statement.rows.map(\.amount) == ["5.00"])
        #expect(statement.entries == 2)
        #expect(statement.notes == ["1 record of zero left out, on line 3: a transaction of nothing cannot be recorded"])
    }

    /// A record of zero whose split parts cancel out (money moved between a category and another
    /// wallet) is left out with a note of its own, which says its parts are not recorded.
    @Test func aQIFRecordOfZeroWithSplitPartsIsLeftOutSayingSo() throws {
        let text = "!Type:Bank\nD1/20/2026\nT0.00\nPPay day\nSSalary\n$100.00\nS[Savings]\n$-100.00\n^\nD1/21/2026\nT-5.00\nPShop\n^\n"
        let statement = try QIFStatementReader.parse(text: text, dateFormat: nil, currency: "EUR")
        #expect(statement.rows.map(\.amount) == ["5.00"])
        #expect(statement.entries == 2)
        #expect(statement.notes == ["1 record of zero with split parts left out, on line 3: a transaction of nothing cannot be recorded; its parts cancel out, and where they move money between categories or wallets, record that yourself"])
    }

    /// Day/month with `/YY`: read in the window around today, not a century back.
    @Test func twoDigitYearsAfterASlashAreReadAroundToday() throws {
        let statement = try QIFStatementReader.parse(text: StatementQuirkFixtures.qifDayMonthTwoDigitYears, dateFormat: nil, currency: "AUD", currentYear: 2026)
        #expect(statement.rows.map(\.date) == ["2013-08-12", "2013-08-15", "2013-08-03"])
        #expect(Self.total(statement) == -149_581)
        // The century the window chose is said, never silent (issue 45 item 12: "with no note").
        #expect(statement.notes == ["3 dates have a two-digit year, read as 2013 (the year ending in those digits from 1946 to 2045): line 2 \"12/8/13\" is 2013-08-12"])
        // The apostrophe form reads the same.
        let apostrophe = try QIFStatementReader.parse(text: "!Type:Bank\nD3/8'13\nT-1.00\n^\nD15/8'13\nT-1.00\n^\n", dateFormat: nil, currency: "AUD", currentYear: 2026)
        #expect(apostrophe.rows.map(\.date) == ["2013-08-03", "2013-08-15"])
        #expect(apostrophe.notes.isEmpty, "Quicken's ' marks 20YY itself: \(apostrophe.notes)")
        // Month/day is still told from the day over 12, and two readings are still refused.
        let monthDay = try QIFStatementReader.parse(text: "!Type:Bank\nD8/12/13\nT-1.00\n^\nD8/15/13\nT-1.00\n^\n", dateFormat: nil, currency: "USD", currentYear: 2026)
        #expect(monthDay.rows.map(\.date) == ["2013-08-12", "2013-08-15"])
        #expect(throws: BankStatementError(line: nil, "the dates are ambiguous: \"3/8/13\" reads as 2013-03-08 with M/D'YY and as 2013-08-03 with D/M'YY; give the format with --date-format")) {
            try QIFStatementReader.parse(text: "!Type:Bank\nD3/8/13\nT-1.00\n^\n", dateFormat: nil, currency: "USD", currentYear: 2026)
        }
    }

    /// The window: this year − 80 to this year + 19, so every YY has one reading.
    @Test(arguments: [
        (2026, "1/2/46", "1946-01-02"), (2026, "1/2/45", "2045-01-02"), (2026, "1/2/95", "1995-01-02"), (2026, "1/2/00", "2000-01-02"),
        (2026, "1/2/26", "2026-01-02"), (2090, "1/2/13", "2013-01-02"), (2090, "1/2/05", "2105-01-02"), (2026, "1/2'95", "2095-01-02"),
    ])
    func theTwoDigitYearWindow(currentYear: Int, date: String, expected: String) throws {
        let format = try BankCSVDateFormat("M/D/YY", twoDigitYears: .quicken(currentYear: currentYear))
        #expect(format.date(from: date) == LedgerDate(expected))
    }
}
