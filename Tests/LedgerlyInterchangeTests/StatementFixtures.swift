/// Statements written from the formats' specifications (OFX 1.0.2/2.1.1, ISO 20022 camt.053,
/// Quicken's QIF), shaped like real banks' exports; shared by the unit and end-to-end tests'
/// expectations (the end-to-end tests keep their own copies, being another target).
enum StatementFixtures {
    /// OFX 1.0.2 SGML, a checking account in EUR: header lines, leaf elements without end tags,
    /// an entity, DTPOSTED with a time and zone, two identical coffees with their own FITIDs.
    static let ofxSGML = """
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
        <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
        <BANKMSGSRSV1>
        <STMTTRNRS>
        <TRNUID>1
        <STATUS><CODE>0<SEVERITY>INFO</STATUS>
        <STMTRS>
        <CURDEF>EUR
        <BANKACCTFROM><BANKID>12345678<ACCTID>0001234567<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST>
        <DTSTART>20261101<DTEND>20261130
        <STMTTRN>
        <TRNTYPE>DEBIT
        <DTPOSTED>20261103120000.000[+1:CET]
        <TRNAMT>-12.50
        <FITID>2026110300001
        <NAME>LIDL DIENSTLEISTUNG
        <MEMO>Card 1234 Berlin
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>CREDIT
        <DTPOSTED>20261105
        <TRNAMT>2500.00
        <FITID>2026110500007
        <NAME>ACME Gehalt &amp; Bonus
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>POS
        <DTPOSTED>20261106
        <TRNAMT>-3.20
        <FITID>2026110600001
        <NAME>Coffee
        </STMTTRN>
        <STMTTRN>
        <TRNTYPE>POS
        <DTPOSTED>20261106
        <TRNAMT>-3.20
        <FITID>2026110600002
        <NAME>Coffee
        </STMTTRN>
        </BANKTRANLIST>
        <LEDGERBAL><BALAMT>2481.10<DTASOF>20261130</LEDGERBAL>
        </STMTRS>
        </STMTTRNRS>
        </BANKMSGSRSV1>
        </OFX>

        """

    /// OFX 2.1.1 XML, a credit card in USD, with a PAYEE aggregate and a foreign-currency charge.
    static let ofxXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
        <OFX>
          <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20261130</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>
          <CREDITCARDMSGSRSV1>
            <CCSTMTTRNRS>
              <TRNUID>0</TRNUID>
              <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
              <CCSTMTRS>
                <CURDEF>USD</CURDEF>
                <CCACCTFROM><ACCTID>4111222233334444</ACCTID></CCACCTFROM>
                <BANKTRANLIST>
                  <DTSTART>20261101</DTSTART><DTEND>20261130</DTEND>
                  <STMTTRN>
                    <TRNTYPE>DEBIT</TRNTYPE>
                    <DTPOSTED>20261102000000[-5:EST]</DTPOSTED>
                    <TRNAMT>-45.99</TRNAMT>
                    <FITID>CC-881</FITID>
                    <PAYEE><NAME>Hardware Store</NAME><ADDR1>1 Main St</ADDR1><CITY>Springfield</CITY><STATE>IL</STATE><POSTALCODE>62701</POSTALCODE><PHONE>555</PHONE></PAYEE>
                  </STMTTRN>
                  <STMTTRN>
                    <TRNTYPE>DEBIT</TRNTYPE>
                    <DTPOSTED>20261109</DTPOSTED>
                    <TRNAMT>-20.00</TRNAMT>
                    <FITID>CC-882</FITID>
                    <NAME>Hotel Lyon</NAME>
                    <MEMO>Room</MEMO>
                    <CURRENCY><CURRATE>1.0850</CURRATE><CURSYM>EUR</CURSYM></CURRENCY>
                  </STMTTRN>
                  <STMTTRN>
                    <TRNTYPE>PAYMENT</TRNTYPE>
                    <DTPOSTED>20261120</DTPOSTED>
                    <TRNAMT>300.00</TRNAMT>
                    <FITID>CC-890</FITID>
                    <NAME>Payment - Thank You</NAME>
                  </STMTTRN>
                </BANKTRANLIST>
                <LEDGERBAL><BALAMT>-565.99</BALAMT><DTASOF>20261130</DTASOF></LEDGERBAL>
              </CCSTMTRS>
            </CCSTMTTRNRS>
          </CREDITCARDMSGSRSV1>
        </OFX>

        """

    /// camt.053.001.02 with a namespace prefix: a card payment, a salary, a pending entry and a
    /// batch of two transfers (each with its own amount, so it is split).
    static let camt02 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <c:Document xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <c:BkToCstmrStmt>
            <c:GrpHdr><c:MsgId>053D2026-11-30T22:00:00</c:MsgId><c:CreDtTm>2026-11-30T22:00:00.0+01:00</c:CreDtTm></c:GrpHdr>
            <c:Stmt>
              <c:Id>0352C5320261130220000</c:Id>
              <c:ElctrncSeqNb>230</c:ElctrncSeqNb>
              <c:CreDtTm>2026-11-30T22:00:00.0+01:00</c:CreDtTm>
              <c:Acct><c:Id><c:IBAN>DE89370400440532013000</c:IBAN></c:Id><c:Ccy>EUR</c:Ccy></c:Acct>
              <c:Bal><c:Tp><c:CdOrPrtry><c:Cd>PRCD</c:Cd></c:CdOrPrtry></c:Tp><c:Amt Ccy="EUR">1000.00</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:Dt><c:Dt>2026-10-31</c:Dt></c:Dt></c:Bal>
              <c:Ntry>
                <c:Amt Ccy="EUR">42.10</c:Amt>
                <c:CdtDbtInd>DBIT</c:CdtDbtInd>
                <c:Sts>BOOK</c:Sts>
                <c:BookgDt><c:Dt>2026-11-03</c:Dt></c:BookgDt>
                <c:ValDt><c:Dt>2026-11-02</c:Dt></c:ValDt>
                <c:AcctSvcrRef>2026110312345</c:AcctSvcrRef>
                <c:BkTxCd><c:Prtry><c:Cd>NMSC+005</c:Cd><c:Issr>ZKA</c:Issr></c:Prtry></c:BkTxCd>
                <c:NtryDtls><c:TxDtls>
                  <c:Refs><c:EndToEndId>NOTPROVIDED</c:EndToEndId></c:Refs>
                  <c:RltdPties><c:Cdtr><c:Nm>REWE Markt GmbH</c:Nm></c:Cdtr></c:RltdPties>
                  <c:RmtInf><c:Ustrd>Karte 1234 2026-11-02</c:Ustrd><c:Ustrd>Berlin</c:Ustrd></c:RmtInf>
                </c:TxDtls></c:NtryDtls>
              </c:Ntry>
              <c:Ntry>
                <c:Amt Ccy="EUR">2500.00</c:Amt>
                <c:CdtDbtInd>CRDT</c:CdtDbtInd>
                <c:Sts>BOOK</c:Sts>
                <c:BookgDt><c:Dt>2026-11-05</c:Dt></c:BookgDt>
                <c:ValDt><c:Dt>2026-11-05</c:Dt></c:ValDt>
                <c:AcctSvcrRef>2026110500077</c:AcctSvcrRef>
                <c:NtryDtls><c:TxDtls>
                  <c:RltdPties><c:Dbtr><c:Nm>ACME GmbH</c:Nm></c:Dbtr><c:Cdtr><c:Nm>Erika Mustermann</c:Nm></c:Cdtr></c:RltdPties>
                  <c:RmtInf><c:Ustrd>Gehalt November</c:Ustrd></c:RmtInf>
                </c:TxDtls></c:NtryDtls>
              </c:Ntry>
              <c:Ntry>
                <c:Amt Ccy="EUR">9.99</c:Amt>
                <c:CdtDbtInd>DBIT</c:CdtDbtInd>
                <c:Sts>PDNG</c:Sts>
                <c:BookgDt><c:Dt>2026-11-30</c:Dt></c:BookgDt>
                <c:AddtlNtryInf>Streaming</c:AddtlNtryInf>
              </c:Ntry>
              <c:Ntry>
                <c:Amt Ccy="EUR">150.00</c:Amt>
                <c:CdtDbtInd>DBIT</c:CdtDbtInd>
                <c:Sts>BOOK</c:Sts>
                <c:BookgDt><c:DtTm>2026-11-10T09:15:00</c:DtTm></c:BookgDt>
                <c:AcctSvcrRef>2026111000003</c:AcctSvcrRef>
                <c:NtryDtls>
                  <c:Btch><c:NbOfTxs>2</c:NbOfTxs></c:Btch>
                  <c:TxDtls>
                    <c:AmtDtls><c:TxAmt><c:Amt Ccy="EUR">100.00</c:Amt></c:TxAmt></c:AmtDtls>
                    <c:RltdPties><c:Cdtr><c:Nm>Stadtwerke</c:Nm></c:Cdtr></c:RltdPties>
                    <c:RmtInf><c:Ustrd>Strom November</c:Ustrd></c:RmtInf>
                  </c:TxDtls>
                  <c:TxDtls>
                    <c:AmtDtls><c:TxAmt><c:Amt Ccy="EUR">50.00</c:Amt></c:TxAmt></c:AmtDtls>
                    <c:RltdPties><c:Cdtr><c:Nm>Sportverein</c:Nm></c:Cdtr></c:RltdPties>
                    <c:RmtInf><c:Ustrd>Beitrag</c:Ustrd></c:RmtInf>
                  </c:TxDtls>
                </c:NtryDtls>
                <c:AddtlNtryInf>Sammelueberweisung</c:AddtlNtryInf>
              </c:Ntry>
            </c:Stmt>
          </c:BkToCstmrStmt>
        </c:Document>

        """

    /// camt.053.001.08 without a prefix: status as `Sts/Cd`, parties as `Pty/Nm`, transaction `Amt`.
    static let camt08 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
          <BkToCstmrStmt>
            <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-30T22:00:00</CreDtTm></GrpHdr>
            <Stmt>
              <Id>S1</Id>
              <Acct><Id><IBAN>FR7630006000011234567890189</IBAN></Id><Ccy>EUR</Ccy></Acct>
              <Ntry>
                <Amt Ccy="EUR">61.00</Amt>
                <CdtDbtInd>DBIT</CdtDbtInd>
                <Sts><Cd>BOOK</Cd></Sts>
                <BookgDt><Dt>2026-11-12</Dt></BookgDt>
                <AcctSvcrRef>FR-7781</AcctSvcrRef>
                <NtryDtls><TxDtls>
                  <Refs><AcctSvcrRef>FR-7781-1</AcctSvcrRef><EndToEndId>E2E-1</EndToEndId></Refs>
                  <Amt Ccy="EUR">61.00</Amt>
                  <CdtDbtInd>DBIT</CdtDbtInd>
                  <RltdPties><Cdtr><Pty><Nm>EDF</Nm></Pty></Cdtr></RltdPties>
                  <RmtInf><Ustrd>Facture 11/2026</Ustrd></RmtInf>
                </TxDtls></NtryDtls>
              </Ntry>
              <Ntry>
                <Amt Ccy="EUR">15.00</Amt>
                <CdtDbtInd>CRDT</CdtDbtInd>
                <Sts><Cd>BOOK</Cd></Sts>
                <BookgDt><Dt>2026-11-13</Dt></BookgDt>
                <AcctSvcrRef>FR-7790</AcctSvcrRef>
                <AddtlNtryInf>Remboursement</AddtlNtryInf>
              </Ntry>
            </Stmt>
          </BkToCstmrStmt>
        </Document>

        """

    /// QIF of a bank account, US dates with Quicken's apostrophe year, a split and a class.
    static let qif = """
        !Type:Bank
        D11/ 3'26
        T-1,234.50
        PLandlord LLC
        MRent November
        LHousing
        N1001
        CX
        ^
        D11/5'26
        T2,500.00
        PACME Corp
        LWork:Salary
        ^
        D11/20'26
        T-84.30
        PSupermarket
        SFood:Groceries
        EVegetables
        $-60.00
        SHousehold
        $-24.30
        ^
        D11/21'26
        T-12.00
        PCinema
        LFun/Holiday
        ^
        D11/22'26
        T-100.00
        PTo savings
        L[Savings]
        ^

        """
}
