import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct OFXStatementReaderTests {
    @Test func anOFX1SGMLBankStatementIsRead() throws {
        let statement = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML)
        #expect(statement.currency == "EUR")
        #expect(statement.account == "0001234567")
        let rows = statement.rows
        #expect(rows.map(\.date) == ["2026-11-03", "2026-11-05", "2026-11-06", "2026-11-06"])
        #expect(rows.map(\.kind) == [.expense, .income, .expense, .expense])
        #expect(rows.map(\.amount) == ["12.50", "2500.00", "3.20", "3.20"])
        #expect(rows.map(\.description) == ["LIDL DIENSTLEISTUNG Card 1234 Berlin", "ACME Gehalt & Bonus", "Coffee", "Coffee"])
        #expect(rows.map(\.importKey) == ["ofx:2026110300001#1", "ofx:2026110500007#1", "ofx:2026110600001#1", "ofx:2026110600002#1"])
        #expect(rows.map(\.line) == [22, 30, 37, 44])
    }

    @Test func anOFX2XMLCardStatementIsRead() throws {
        let statement = try OFXStatementReader.parse(text: StatementFixtures.ofxXML)
        #expect(statement.currency == "USD")
        #expect(statement.account == "4111222233334444")
        #expect(statement.rows.map(\.amount) == ["45.99", "20.00", "300.00"])
        #expect(statement.rows.map(\.kind) == [.expense, .expense, .income])
        // CURRENCY makes the amount the charge's own currency; PAYEE's NAME stands in for NAME.
        #expect(statement.rows.map(\.currency) == ["USD", "EUR", "USD"])
        #expect(statement.rows.map(\.description) == ["Hardware Store", "Hotel Lyon Room", "Payment - Thank You"])
        #expect(statement.rows[0].date == "2026-11-02")
    }

    @Test func theKeyIsTheFITIDWhateverTheDescriptionSays() throws {
        let first = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML)
        let reworded = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML.replacingOccurrences(of: "<NAME>Coffee", with: "<NAME>COFFEE SHOP 22"))
        #expect(first.rows.map(\.importKey) == reworded.rows.map(\.importKey))
        // A FITID a bank repeats within a file for another transaction still names two rows.
        let repeated = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML.replacingOccurrences(of: "<TRNAMT>-3.20\n<FITID>2026110600002", with: "<TRNAMT>-3.40\n<FITID>2026110600001"))
        #expect(repeated.rows.suffix(2).map(\.importKey) == ["ofx:2026110600001#1", "ofx:2026110600001#2"])
    }

    @Test func rulesAndADecimalCommaApply() throws {
        let text = StatementFixtures.ofxSGML.replacingOccurrences(of: "<TRNAMT>-12.50", with: "<TRNAMT>-12,50")
        let statement = try OFXStatementReader.parse(text: text, rules: [BankCSVRule(match: .contains("lidl"), category: "Food:Groceries", tags: ["groceries"])])
        #expect(statement.rows[0].amount == "12.50")
        #expect(statement.rows[0].categoryPath == "Food:Groceries")
        #expect(statement.rows[0].tags == ["groceries"])
        #expect(statement.rows[1].categoryPath == nil)
    }

    @Test(arguments: [
        ("<TRNAMT>-12.50", "<TRNAMT>-12.5x", "line 25: amount \"-12.5x\" in <TRNAMT> is not a number (decimal separator \".\", no thousands separator)"),
        ("<DTPOSTED>20261103120000.000[+1:CET]", "<DTPOSTED>20261131", "line 24: date \"20261131\" in <DTPOSTED> is not a real calendar date"),
        ("<DTPOSTED>20261103120000.000[+1:CET]", "<DTPOSTED>03.11.2026", "line 24: date \"03.11.2026\" in <DTPOSTED> is not YYYYMMDD[HHMMSS[.XXX]][[+-]h:TZ]"),
        ("<DTPOSTED>20261103120000.000[+1:CET]", "<DTPOSTED>20261103XYZ", "line 24: date \"20261103XYZ\" in <DTPOSTED> is not YYYYMMDD[HHMMSS[.XXX]][[+-]h:TZ]"),
        ("<DTPOSTED>20261103120000.000[+1:CET]", "<DTPOSTED>20261103120000[+1:CET]x", "line 24: date \"20261103120000[+1:CET]x\" in <DTPOSTED> is not YYYYMMDD[HHMMSS[.XXX]][[+-]h:TZ]"),
        ("<DTPOSTED>20261103120000.000[+1:CET]\n", "", "line 22: <STMTTRN> has no <DTPOSTED>"),
        ("<CURDEF>EUR", "<CURDEF>EURO", "line 18: \"EURO\" in <CURDEF> is not a currency code"),
        ("</BANKTRANLIST>", "</BANKTRANLST>", "line 51: the end tag </BANKTRANLST> closes no open element (the innermost is <BANKTRANLIST>, opened on line 20)"),
        ("<FITID>2026110500007\n", "<FITID>2026110500007\n<CORRECTFITID>2026110500001\n<CORRECTACTION>REPLACE\n",
         "line 30: <STMTTRN> corrects the transaction with FITID \"2026110500001\" (CORRECTACTION REPLACE): corrections are not applied by an import; change or delete that transaction yourself and remove this one from the file"),
        ("OFXHEADER:100", "HELLO:100", "line 1: not an OFX file: it starts with \"HELLO:100\", not OFXHEADER: or <?xml"),
    ])
    func malformedStatementsAreRefusedNamingTheLineAndText(original: String, replacement: String, message: String) {
        let text = StatementFixtures.ofxSGML.replacingOccurrences(of: original, with: replacement)
        do {
            let statement = try OFXStatementReader.parse(text: text)
            Issue.record("read \(statement.rows.count) rows")
        } catch {
            #expect(error.description == message)
        }
    }

    /// The forms the specification and banks write: a day, a time, milliseconds, a zone.
    @Test(arguments: ["20261103", "202611031200", "20261103120000", "20261103120000.000", "20261103120000.5[-5:EST]", "20261103[0:GMT]", "20261103120000[+5.30:IST]", "20261103120000[-3]"])
    func aPostingTimeAndZoneAreAccepted(posted: String) throws {
        let text = StatementFixtures.ofxSGML.replacingOccurrences(of: "<DTPOSTED>20261103120000.000[+1:CET]", with: "<DTPOSTED>\(posted)")
        #expect(try OFXStatementReader.parse(text: text).rows[0].date == "2026-11-03")
    }

    @Test func aFileOfSeveralAccountsNeedsOneChosen() throws {
        let second = StatementFixtures.ofxSGML.components(separatedBy: "<STMTTRNRS>")[1].components(separatedBy: "</STMTTRNRS>")[0]
            .replacingOccurrences(of: "0001234567", with: "0009999999").replacingOccurrences(of: "<FITID>20261", with: "<FITID>X20261")
        let text = StatementFixtures.ofxSGML.replacingOccurrences(of: "</BANKMSGSRSV1>", with: "<STMTTRNRS>\(second)</STMTTRNRS>\n</BANKMSGSRSV1>")
        #expect(throws: BankStatementError(line: nil, "the file holds statements of 2 accounts (\"0001234567\", \"0009999999\"): choose one with --account")) {
            try OFXStatementReader.parse(text: text)
        }
        let chosen = try OFXStatementReader.parse(text: text, account: "0009999999")
        #expect(chosen.rows.first?.importKey == "ofx:X2026110300001#1")
        #expect(chosen.rows.count == 4)
    }
}

extension OFXStatementReaderTests {
    /// "\r\n" is one Character in Swift: the header's lines must still be counted.
    @Test func anOFX1FileWithCRLFLineEndsNamesTheSameLines() throws {
        let crlf = StatementFixtures.ofxSGML.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try OFXStatementReader.parse(text: crlf).rows.map(\.line) == [22, 30, 37, 44])
        #expect(throws: BankStatementError(line: 25, "amount \"-12.5x\" in <TRNAMT> is not a number (decimal separator \".\", no thousands separator)")) {
            try OFXStatementReader.parse(text: crlf.replacingOccurrences(of: "<TRNAMT>-12.50", with: "<TRNAMT>-12.5x"))
        }
        #expect(throws: BankStatementError(line: 1, "not an OFX file: it starts with \"HELLO:100\", not OFXHEADER: or <?xml")) {
            try OFXStatementReader.parse(text: crlf.replacingOccurrences(of: "OFXHEADER:100", with: "HELLO:100"))
        }
    }
}

extension OFXStatementReaderTests {
    /// Two overlapping statements of one account in one file list the same transactions with the
    /// same FITIDs: a repeat identical in day, amount and text is the same transaction and gets
    /// the same key (the store then skips it as a duplicate), not `#2`.
    @Test func anIdenticalRepeatOfAFITIDIsTheSameTransaction() throws {
        let block = StatementFixtures.ofxSGML.components(separatedBy: "<STMTTRNRS>")[1].components(separatedBy: "</STMTTRNRS>")[0]
        let text = StatementFixtures.ofxSGML.replacingOccurrences(of: "</BANKMSGSRSV1>", with: "<STMTTRNRS>\(block)</STMTTRNRS>\n</BANKMSGSRSV1>")
        let rows = try OFXStatementReader.parse(text: text).rows
        #expect(rows.count == 8)
        #expect(rows.suffix(4).map(\.importKey) == rows.prefix(4).map(\.importKey))
        #expect(rows.prefix(4).map(\.importKey) == ["ofx:2026110300001#1", "ofx:2026110500007#1", "ofx:2026110600001#1", "ofx:2026110600002#1"])
    }
}

extension OFXStatementReaderTests {
    /// A transaction of zero (a card check, a reversed fee) is left out with a note, as CAMT's
    /// pending entries are, rather than refusing the whole statement.
    @Test func aTransactionOfZeroIsLeftOutWithANote() throws {
        let statement = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML.replacingOccurrences(of: "<TRNAMT>-12.50", with: "<TRNAMT>-0.00"))
        #expect(statement.rows.map(\.amount) == ["2500.00", "3.20", "3.20"])
        #expect(statement.notes == ["1 transaction of zero left out, on line 25: a transaction of nothing cannot be recorded"])
    }
}
