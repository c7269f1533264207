import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct CAMTStatementReaderTests {
    @Test func aCamt053v02StatementWithPrefixesIsRead() throws {
        let statement = try CAMTStatementReader.parse(text: StatementFixtures.camt02)
        #expect(statement.currency == "EUR")
        #expect(statement.account == "DE89370400440532013000")
        let rows = statement.rows
        // The batch of 150.00 became its two transfers; the pending entry is left out.
        #expect(rows.map(\.date) == ["2026-11-03", "2026-11-05", "2026-11-10", "2026-11-10"])
        #expect(rows.map(\.amount) == ["42.10", "2500.00", "100.00", "50.00"])
        #expect(rows.map(\.kind) == [.expense, .income, .expense, .expense])
        #expect(rows.map(\.description) == ["REWE Markt GmbH Karte 1234 2026-11-02 Berlin", "ACME GmbH Gehalt November", "Stadtwerke Strom November", "Sportverein Beitrag"])
        #expect(rows.map(\.importKey) == ["camt:2026-11-03:2026110312345#1", "camt:2026-11-05:2026110500077#1", "camt:2026-11-10:2026111000003/1#1", "camt:2026-11-10:2026111000003/2#1"])
        #expect(statement.notes == ["1 entry not booked (PDNG) left out, on line 37: import a later statement once booked"])
    }

    @Test func aCamt053v08StatementIsRead() throws {
        let statement = try CAMTStatementReader.parse(text: StatementFixtures.camt08)
        #expect(statement.rows.map(\.description) == ["EDF Facture 11/2026", "Remboursement"])
        #expect(statement.rows.map(\.kind) == [.expense, .income])
        #expect(statement.rows.map(\.importKey) == ["camt:2026-11-12:FR-7781#1", "camt:2026-11-13:FR-7790#1"])
        #expect(try CAMTStatementReader.parse(text: StatementFixtures.camt08, account: "FR76 3000 6000 0112 3456 7890 189").rows.count == 2)
    }

    @Test func aBatchWhoseTransactionsDoNotAddUpStaysOneRow() throws {
        let text = StatementFixtures.camt02.replacingOccurrences(of: "<c:Amt Ccy=\"EUR\">50.00</c:Amt>", with: "<c:Amt Ccy=\"EUR\">49.00</c:Amt>")
        let rows = try CAMTStatementReader.parse(text: text).rows
        #expect(rows.map(\.amount) == ["42.10", "2500.00", "150.00"])
        #expect(rows.last?.description == "Sammelueberweisung")
        #expect(rows.last?.importKey == "camt:2026-11-10:2026111000003#1")
    }

    @Test(arguments: [
        ("<c:CdtDbtInd>DBIT</c:CdtDbtInd>\n        <c:Sts>BOOK</c:Sts>\n        <c:BookgDt><c:Dt>2026-11-03", "<c:CdtDbtInd>DEBIT</c:CdtDbtInd>\n        <c:Sts>BOOK</c:Sts>\n        <c:BookgDt><c:Dt>2026-11-03",
         "line 13: <Ntry> has <CdtDbtInd> \"DEBIT\", not CRDT or DBIT"),
        ("<c:CdtDbtInd>DBIT</c:CdtDbtInd>\n        <c:Sts>BOOK</c:Sts>\n        <c:BookgDt><c:Dt>2026-11-03", "<c:CdtDbtInd>DBIT</c:CdtDbtInd>\n        <c:Sts><c:Prtry>GEBUCHT</c:Prtry></c:Sts>\n        <c:BookgDt><c:Dt>2026-11-03",
         "line 14: <Ntry> has the bank's own status \"GEBUCHT\" (<Sts><Prtry>), not a code of the standard (BOOK, PDNG, INFO): which entries are booked cannot be told"),
        ("<c:Dt>2026-11-05</c:Dt></c:BookgDt>", "<c:Dt>05.11.2026</c:Dt></c:BookgDt>", "line 29: date \"05.11.2026\" in <BookgDt/Dt> is not YYYY-MM-DD"),
        ("<c:Amt Ccy=\"EUR\">42.10</c:Amt>", "<c:Amt Ccy=\"EUR\">-42.10</c:Amt>",
         "line 12: amount \"-42.10\" in <Amt> is not a plain decimal (CAMT amounts have no sign: <CdtDbtInd> gives the direction)"),
        ("<c:Amt Ccy=\"EUR\">42.10</c:Amt>", "<c:Amt>42.10</c:Amt>", "line 12: <Amt> \"42.10\" has no Ccy attribute (its currency)"),
        ("<c:Nm>REWE Markt GmbH</c:Nm>", "<c:Nm>REWE &eacute;</c:Nm>", "line 21: \"&eacute;…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)"),
        ("<c:BkToCstmrStmt>", "<c:BkToCstmrAcctRpt>", "line 66: the end tag </c:BkToCstmrStmt> does not match <BkToCstmrAcctRpt> opened on line 3"),
    ])
    func malformedStatementsAreRefusedNamingTheLineAndText(original: String, replacement: String, message: String) {
        let text = StatementFixtures.camt02.replacingOccurrences(of: original, with: replacement)
        do {
            let statement = try CAMTStatementReader.parse(text: text)
            Issue.record("read \(statement.rows.count) rows")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Banks write NONREF or NOTPROVIDED where they have no reference: such a "reference" would
    /// give every entry of the file one id, so it is no id and the text fingerprint is used.
    @Test(arguments: ["NONREF", "NOTPROVIDED", "nonref", " "])
    func aPlaceholderReferenceIsNoReference(placeholder: String) throws {
        let text = StatementFixtures.camt02.replacingOccurrences(of: "<c:AcctSvcrRef>2026110312345</c:AcctSvcrRef>", with: "<c:AcctSvcrRef>\(placeholder)</c:AcctSvcrRef>")
            .replacingOccurrences(of: "<c:AcctSvcrRef>2026110500077</c:AcctSvcrRef>", with: "<c:AcctSvcrRef>\(placeholder)</c:AcctSvcrRef>")
        let keys = try CAMTStatementReader.parse(text: text).rows.map(\.importKey)
        #expect(keys.prefix(2).allSatisfy { !$0.hasPrefix("camt:") && $0.hasSuffix("#1") }, "\(keys)")
        #expect(Set(keys).count == keys.count)
    }

    @Test func anEntryOfZeroIsLeftOutWithANote() throws {
        let text = StatementFixtures.camt02.replacingOccurrences(of: "<c:Amt Ccy=\"EUR\">42.10</c:Amt>", with: "<c:Amt Ccy=\"EUR\">0.00</c:Amt>")
        let statement = try CAMTStatementReader.parse(text: text)
        #expect(statement.rows.map(\.amount) == ["2500.00", "100.00", "50.00"])
        #expect(statement.notes == [
            "1 entry not booked (PDNG) left out, on line 37: import a later statement once booked",
            "1 entry of zero left out, on line 12: a transaction of nothing cannot be recorded",
        ])
    }

    /// A batch part whose amount cannot be used (zero, signed, without its currency) only means
    /// the batch cannot be split: the booked entry stays one row.
    @Test(arguments: ["<c:Amt Ccy=\"EUR\">0.00</c:Amt>", "<c:Amt Ccy=\"EUR\">-50.00</c:Amt>", "<c:Amt>50.00</c:Amt>"])
    func aBatchPartWithAnUnusableAmountLeavesTheBatchWhole(part: String) throws {
        let text = StatementFixtures.camt02.replacingOccurrences(of: "<c:Amt Ccy=\"EUR\">50.00</c:Amt>", with: part)
        let rows = try CAMTStatementReader.parse(text: text).rows
        #expect(rows.map(\.amount) == ["42.10", "2500.00", "150.00"])
    }

    @Test func aCamt052ReportIsNamedForWhatItIs() {
        let text = StatementFixtures.camt08.replacingOccurrences(of: "BkToCstmrStmt", with: "BkToCstmrAcctRpt")
        #expect(throws: BankStatementError(line: 2, "not a camt.053 statement: <BkToCstmrAcctRpt> (camt.052, an intraday report) instead of <BkToCstmrStmt>")) {
            try CAMTStatementReader.parse(text: text)
        }
    }
}
