/// Statements written for this project that reproduce what real banks' and programs' exports do
/// and the specifications allow (issue 45, items 8–13): each quirk in a few lines, with its count
/// and total known. The real files they were found in are not copied here (their licences and
/// sources are in ../shared/bank-statements/SOURCES.md).
enum StatementQuirkFixtures {
    /// OFX 1.0.2 SGML, a credit card in BRL whose `<BANKTRANLIST>` is never closed (OFX 1.x lets
    /// every end tag be left out): three transactions, −209.36 in all.
    static let ofxCardWithoutListEnd = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102
        SECURITY:NONE
        ENCODING:USASCII
        CHARSET:1252
        COMPRESSION:NONE
        OLDFILEUID:NONE
        NEWFILEUID:NONE
        <OFX>
        <SIGNONMSGSRSV1>
        <SONRS>
        <STATUS>
        <CODE>0
        <SEVERITY>INFO
        </STATUS>
        <DTSERVER>20261130000000[-3:GMT]
        <LANGUAGE>POR
        </SONRS>
        </SIGNONMSGSRSV1>
        <CREDITCARDMSGSRSV1>
        <CCSTMTTRNRS>
        <TRNUID>1001
        <STATUS>
        <CODE>0
        <SEVERITY>INFO
        </STATUS>
        <CCSTMTRS>
        <CURDEF>BRL
        <CCACCTFROM>
        <ACCTID>5555-CARD
        </CCACCTFROM>
        <BANKTRANLIST>
        <DTSTART>20261101000000[-3:GMT]
        <DTEND>20261130000000[-3:GMT]
        <STMTTRN>
        <TRNTYPE>DEBIT
        <DTPOSTED>20261103000000[-3:GMT]
        <TRNAMT>-13.00
        <FITID>C-0001
        <MEMO>Padaria
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>DEBIT
        <DTPOSTED>20261104000000[-3:GMT]
        <TRNAMT>-162.90
        <FITID>C-0002
        <MEMO>Mercado
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>DEBIT
        <DTPOSTED>20261105000000[-3:GMT]
        <TRNAMT>-33.46
        <FITID>C-0003
        <MEMO>Farmacia
        </STMTTRN>
        <LEDGERBAL>
        <BALAMT>-209.36
        <DTASOF>20261130000000[-3:GMT]
        </LEDGERBAL>
        </CCSTMTRS>
        </CCSTMTTRNRS>
        </CREDITCARDMSGSRSV1>
        </OFX>

        """

    /// The same statement with every end tag but `</OFX>` left out, as the specification allows.
    static var ofxCardWithoutAnyEndTag: String {
        ofxCardWithoutListEnd.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("</") || $0 == "</OFX>" }.joined(separator: "\n")
    }

    /// An OFX 2 XML header over an OFX 1 SGML body (leaves not closed), as Australian banks
    /// write: two transactions in AUD, −40.35 in all.
    static let ofxXMLHeaderOverSGML = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <?OFX OFXHEADER="200" VERSION="203" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
        <OFX>
        <SIGNONMSGSRSV1>
        <SONRS>
        <STATUS>
        <CODE>0
        <SEVERITY>INFO
        </STATUS>
        <DTSERVER>20261130192849
        <LANGUAGE>ENG
        </SONRS>
        </SIGNONMSGSRSV1>
        <CREDITCARDMSGSRSV1>
        <CCSTMTTRNRS>
        <TRNUID>1
        <STATUS>
        <CODE>0
        <SEVERITY>INFO
        </STATUS>
        <CCSTMTRS>
        <CURDEF>AUD
        <CCACCTFROM>
        <ACCTID>4111222233334444
        </CCACCTFROM>
        <BANKTRANLIST>
        <DTSTART>20261101
        <DTEND>20261130
        <STMTTRN>
        <TRNTYPE>DEBIT
        <DTPOSTED>20261110000000
        <TRNAMT>-50.35
        <FITID>A-1
        <NAME>BAKERY SYDNEY
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>CREDIT
        <DTPOSTED>20261112000000
        <TRNAMT>10.00
        <FITID>A-2
        <NAME>REFUND
        </STMTTRN>
        </BANKTRANLIST>
        </CCSTMTRS>
        </CCSTMTTRNRS>
        </CREDITCARDMSGSRSV1>
        </OFX>

        """

    /// A QIF as programs other than Quicken write it: `#` comments, lists, an `!Account` block
    /// naming the bank account, a record of zero (an opening balance), and an investment account
    /// beside it. The bank section holds four records: three rows of −6.50, 2,500.00 and −48.00
    /// (2,445.50 in all) and the zero one.
    static let qifWithCommentsAndInvestments = """
        ### Exported by a budgeting program ###
        # for the tests of issue 45
        !Type:Class
        NHoliday
        DTrips
        ^
        !Type:Cat
        NFood
        E
        ^
        NFood:Lunch
        E
        ^
        !Account
        NEveryday
        TBank
        ^
        !Type:Bank
        D10/ 2'26
        T0.00
        POpening Balance
        L[Everyday]
        ^
        D10/23'26
        T-6.50
        PCafe
        LFood:Lunch
        ^
        D10/25'26
        T2,500.00
        PACME Corp
        ^
        # a comment between records
        D10/28'26
        T-48.00
        PVia Roma
        S[Card]
        $-31.00
        SFood:Lunch
        $-17.00
        ^
        !Account
        NBroker
        TInvst
        ^
        !Type:Invst
        D10/14'26
        NBuy
        YAAPL
        I32.00
        Q10
        T320.00
        ^
        D10/15'26
        NDiv
        YAAPL
        T4.00
        ^
        !Type:Security
        NApple
        SAAPL
        ^

        """

    /// Day/month/two-digit-year dates written with `/` (as Australian and British exports of
    /// QIF do): all in 2013, −1,495.81 in all.
    static let qifDayMonthTwoDigitYears = """
        !Type:Bank
        D12/8/13
        T-1,000.00
        PDelta PC
        ^
        D15/8/13
        T-75.46
        PWalts Drugs
        ^
        D03/08/13
        T-420.35
        PWater Utility
        ^

        """
}
