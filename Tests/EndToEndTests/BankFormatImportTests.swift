import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// OFX, CAMT.053, QIF and European CSV statements through the real `ledgerly` binary into a
    /// real store: imported, imported again (all duplicates), dry-run (nothing changes), undone.
    @Suite struct BankFormatImportTests {
        static let ofx = """
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
            <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
            <STMTRS><CURDEF>EUR
            <BANKACCTFROM><BANKID>12345678<ACCTID>0001234567<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20261101<DTEND>20261130
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261103120000.000[+1:CET]<TRNAMT>-12.50<FITID>A1<NAME>LIDL DIENSTLEISTUNG<MEMO>Card 1234</STMTTRN>
            <STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261105<TRNAMT>2500.00<FITID>A2<NAME>ACME Gehalt &amp; Bonus</STMTTRN>
            <STMTTRN><TRNTYPE>POS<DTPOSTED>20261106<TRNAMT>-3.20<FITID>A3<NAME>Coffee</STMTTRN>
            <STMTTRN><TRNTYPE>POS<DTPOSTED>20261106<TRNAMT>-3.20<FITID>A4<NAME>Coffee</STMTTRN>
            </BANKTRANLIST>
            <LEDGERBAL><BALAMT>2481.10<DTASOF>20261130</LEDGERBAL>
            </STMTRS></STMTTRNRS></BANKMSGSRSV1>
            </OFX>

            """

        static let camt = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
              <BkToCstmrStmt>
                <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-30T22:00:00</CreDtTm></GrpHdr>
                <Stmt>
                  <Id>S1</Id>
                  <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
                  <Ntry>
                    <Amt Ccy="EUR">42.10</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
                    <BookgDt><Dt>2026-11-03</Dt></BookgDt><AcctSvcrRef>R1</AcctSvcrRef>
                    <NtryDtls><TxDtls><RltdPties><Cdtr><Nm>REWE Markt GmbH</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Karte 1234</Ustrd></RmtInf></TxDtls></NtryDtls>
                  </Ntry>
                  <Ntry>
                    <Amt Ccy="EUR">9.99</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts>
                    <BookgDt><Dt>2026-11-30</Dt></BookgDt><AddtlNtryInf>Streaming</AddtlNtryInf>
                  </Ntry>
                  <Ntry>
                    <Amt Ccy="EUR">150.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
                    <BookgDt><Dt>2026-11-10</Dt></BookgDt><AcctSvcrRef>R3</AcctSvcrRef>
                    <NtryDtls>
                      <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">100.00</Amt></TxAmt></AmtDtls><RltdPties><Cdtr><Nm>Stadtwerke</Nm></Cdtr></RltdPties></TxDtls>
                      <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">50.00</Amt></TxAmt></AmtDtls><RltdPties><Cdtr><Nm>Sportverein</Nm></Cdtr></RltdPties></TxDtls>
                    </NtryDtls>
                  </Ntry>
                </Stmt>
              </BkToCstmrStmt>
            </Document>

            """

        static let qif = """
            !Type:Bank
            D11/ 3'26
            T-1,234.50
            PLandlord LLC
            LHousing
            ^
            D11/20'26
            T-84.30
            PSupermarket
            SFood:Groceries
            $-60.00
            SHousehold
            $-24.30
            ^
            D11/21'26
            T-12.00
            PCinema
            LFun/Holiday
            ^

            """

        static func decode<Value: Decodable>(_ type: Value.Type, _ result: ServiceHarness.CommandResult) throws -> Value {
            try ReportsImportExportTests.decode(type, result)
        }

        static func transactions(_ harness: ServiceHarness, wallet: String) throws -> [TransactionRecord] {
            try decode(TransactionListReply.self, try harness.cli("tx", "list", "--wallet", wallet, "--json")).transactions
        }

        static func balance(_ harness: ServiceHarness, wallet: String) throws -> String? {
            try decode(BalanceReport.self, try harness.cli("report", "balance", "--json")).wallets.first { $0.name == wallet }?.balance
        }

        static func write(_ text: String, _ name: String, _ harness: ServiceHarness) throws -> String {
            let file = harness.home.root.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }

        static func start(_ steps: [[String]]) throws -> ServiceHarness {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            for step in steps {
                let result = try harness.cli(step)
                guard result.status == 0 else { throw HarnessError.commandFailed(step.joined(separator: " "), result.stderr) }
            }
            return harness
        }

        /// The import id an import's summary offers to undo.
        static func undoId(_ result: ServiceHarness.CommandResult) -> String? {
            result.stdout.split(separator: "\n").last { $0.contains("ledgerly import undo") }?.split(separator: " ").last.map(String.init)
        }

        /// Dry run, import, import again, undo: what every format must do the same way.
        static func importTwiceAndUndo(_ harness: ServiceHarness, format: String, file: String, wallet: String, extra: [String] = [], rows: Int) throws -> [TransactionRecord] {
            let dry = try decode(TransactionImportReply.self, try harness.cli(["import", format, file, "--wallet", wallet, "--dry-run", "--json"] + extra))
            #expect(dry.imported == rows)
            #expect(dry.dryRun)
            #expect(try transactions(harness, wallet: wallet).isEmpty)

            let first = try harness.cli(["import", format, file, "--wallet", wallet] + extra)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("Imported \(rows) of \(rows) rows from \(file) into \(wallet)."), "\(first.stdout)")
            let imported = try transactions(harness, wallet: wallet)
            #expect(imported.count == rows)

            let again = try decode(TransactionImportReply.self, try harness.cli(["import", format, file, "--wallet", wallet, "--json"] + extra))
            #expect(again.imported == 0)
            #expect(again.duplicates.count == rows)
            #expect(try transactions(harness, wallet: wallet).count == rows)

            let id = try #require(undoId(first))
            #expect(id.hasPrefix(format + "-"))
            let undo = try harness.cli("import", "undo", id)
            #expect(undo.status == 0, "\(undo.stderr)")
            #expect(try transactions(harness, wallet: wallet).isEmpty)
            return imported
        }

        @Test func anOFXStatementImportsOnceByFITIDAndUndoes() throws {
            let harness = try Self.start([["wallet", "add", "Checking", "--currency", "EUR"], ["wallet", "add", "Dollars", "--currency", "USD"],
                                          ["category", "add", "Food", "--kind", "expense"], ["category", "add", "Groceries", "--parent", "Food"]])
            let file = try Self.write(Self.ofx, "checking.ofx", harness)
            let rules = try Self.write(#"[{"contains": "lidl", "category": "Food:Groceries", "tags": ["groceries"]}]"#, "rules.json", harness)
            let imported = try Self.importTwiceAndUndo(harness, format: "ofx", file: file, wallet: "Checking", extra: ["--rules", rules], rows: 4)
            #expect(imported.map(\.amount).sorted() == ["12.50", "2500.00", "3.20", "3.20"])
            let lidl = try #require(imported.first { $0.notes == "LIDL DIENSTLEISTUNG Card 1234" })
            #expect(lidl.date == "2026-11-03")
            #expect(lidl.kind == .expense)
            #expect(lidl.tags == ["groceries"])
            #expect(lidl.categoryId != nil)
            #expect(imported.contains { $0.notes == "ACME Gehalt & Bonus" && $0.kind == .income })

            // Imported for good: the balance is the statement's.
            #expect(try harness.cli("import", "ofx", file, "--wallet", "Checking").status == 0)
            #expect(try Self.balance(harness, wallet: "Checking") == "2481.10")

            // A statement in EUR is refused for a USD wallet, naming both currencies.
            let refused = try harness.cli("import", "ofx", file, "--wallet", "Dollars")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("is a statement in EUR (account 0001234567) but wallet Dollars is in USD; nothing was imported"), "\(refused.stderr)")
            #expect(try Self.transactions(harness, wallet: "Dollars").isEmpty)

            // A bad amount names its line and imports nothing.
            let bad = try Self.write(Self.ofx.replacingOccurrences(of: "<TRNAMT>-3.20<FITID>A4", with: "<TRNAMT>-3.2x<FITID>A4"), "bad.ofx", harness)
            let badResult = try harness.cli("import", "ofx", bad, "--wallet", "Dollars")
            #expect(badResult.stderr.contains("line 20: amount \"-3.2x\" in <TRNAMT> is not a number"), "\(badResult.stderr)")
        }

        @Test func aCAMTStatementImportsBookedEntriesSplittingABatch() throws {
            let harness = try Self.start([["wallet", "add", "Giro", "--currency", "EUR"]])
            let file = try Self.write(Self.camt, "statement.xml", harness)
            let first = try harness.cli("import", "camt", file, "--wallet", "Giro", "--dry-run")
            #expect(first.stderr.contains("1 entry not booked (PDNG) left out, on line 13"), "\(first.stderr)")
            let imported = try Self.importTwiceAndUndo(harness, format: "camt", file: file, wallet: "Giro", rows: 3)
            #expect(Set(imported.compactMap(\.notes)) == ["REWE Markt GmbH Karte 1234", "Stadtwerke", "Sportverein"])
            #expect(imported.map(\.amount).sorted() == ["100.00", "42.10", "50.00"])
            #expect(imported.allSatisfy { $0.kind == .expense })
        }

        @Test func aQIFFileUsesTheLedgersCategoriesOrIsRefusedNamingTheMissingOnes() throws {
            let harness = try Self.start([["wallet", "add", "Checking", "--currency", "USD"], ["category", "add", "Housing", "--kind", "expense"],
                                          ["category", "add", "Food", "--kind", "expense"], ["category", "add", "Groceries", "--parent", "Food"],
                                          ["category", "add", "Household", "--kind", "expense"]])
            let file = try Self.write(Self.qif, "checking.qif", harness)
            let missing = try harness.cli("import", "qif", file, "--wallet", "Checking")
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("names 1 category this ledger does not have: 'Fun' (line 15); nothing was imported"), "\(missing.stderr)")
            #expect(missing.stderr.contains("--ignore-categories"))

            let imported = try Self.importTwiceAndUndo(harness, format: "qif", file: file, wallet: "Checking", extra: ["--ignore-categories", "--date-format", "M/D'YY"], rows: 3)
            let categories = try Self.decode(CategoryListReply.self, try harness.cli("category", "list", "--json")).categories
            let id = { (path: String) in categories.first { $0.path == path }?.id }
            let rent = try #require(imported.first { $0.notes == "Landlord LLC" })
            #expect(rent.amount == "1234.50")
            #expect(rent.date == "2026-11-03")
            #expect(rent.categoryId == id("Housing"))
            let shop = try #require(imported.first { $0.notes == "Supermarket" })
            #expect(shop.splits.map(\.amount) == ["60.00", "24.30"])
            #expect(shop.splits.map(\.categoryId) == [id("Food/Groceries"), id("Household")].compactMap { $0 })
            let cinema = try #require(imported.first { $0.notes == "Cinema" })
            #expect(cinema.categoryId == nil)
            #expect(cinema.tags == ["Holiday"])
        }

        static let splitQIF = """
            !Type:Bank
            D12/14'26
            T-30.00
            PCorner Shop
            SFood:Groceries
            EVegetables
            $-18.00
            SHousehold
            EBin bags
            $-12.00
            ^

            """

        /// A split record's parts win over a rule's category; a split that cannot be kept is
        /// imported whole, in the rule's category if one matched, and always with a note.
        @Test func aQIFSplitKeepsItsPartsUnderARuleAndIsNeverDroppedInSilence() throws {
            let harness = try Self.start([["wallet", "add", "Checking", "--currency", "USD"], ["wallet", "add", "Cash", "--currency", "USD"],
                                          ["wallet", "add", "Card", "--currency", "USD"],
                                          ["category", "add", "Food", "--kind", "expense"], ["category", "add", "Groceries", "--parent", "Food"],
                                          ["category", "add", "Shopping", "--kind", "expense"]])
            let rules = try Self.write(#"[{"contains": "corner shop", "category": "Shopping", "tags": ["shop"]}]"#, "rules.json", harness)
            let file = try Self.write(Self.splitQIF, "split.qif", harness)
            let categories = { try Self.decode(CategoryListReply.self, try harness.cli("category", "list", "--json")).categories }
            let id = { (path: String) in try categories().first { $0.path == path }?.id }

            // Household is missing: refused, naming it.
            let refused = try harness.cli("import", "qif", file, "--wallet", "Checking", "--rules", rules)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("names 1 category this ledger does not have: 'Household' (line 8)"), "\(refused.stderr)")

            // With --ignore-categories the record is imported whole, in the rule's category, with a note.
            let whole = try harness.cli("import", "qif", file, "--wallet", "Checking", "--rules", rules, "--ignore-categories")
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(whole.stderr.contains("line 2: its split part on line 8 names 'Household', which this ledger does not have; imported whole in the rule's category Shopping (its 2 parts and their memos are not kept)"), "\(whole.stderr)")
            let wholeRow = try #require(try Self.transactions(harness, wallet: "Checking").first)
            #expect(wholeRow.splits.isEmpty)
            #expect(wholeRow.categoryId == (try id("Shopping")))
            #expect(wholeRow.tags == ["shop"])

            // Without a rule, the same record is imported whole without a category, with a note.
            let bare = try harness.cli("import", "qif", file, "--wallet", "Cash", "--ignore-categories")
            #expect(bare.status == 0, "\(bare.stderr)")
            #expect(bare.stderr.contains("line 2: its split part on line 8 names 'Household', which this ledger does not have; imported whole without a category (its 2 parts and their memos are not kept)"), "\(bare.stderr)")
            #expect(try Self.transactions(harness, wallet: "Cash").first?.categoryId == nil)

            // A split no ledger could hold (a part without a category) is imported whole, and the
            // category its other part names is not asked for, since it would not be used.
            let partless = try Self.write(Self.splitQIF.replacingOccurrences(of: "SFood:Groceries", with: "S"), "partless.qif", harness)
            let unusable = try harness.cli("import", "qif", partless, "--wallet", "Card")
            #expect(unusable.status == 0, "\(unusable.stderr)")
            #expect(unusable.stderr.contains("line 2: its split parts include one without a category, which a Ledgerly split cannot be; imported whole without a category"), "\(unusable.stderr)")

            // Once Household exists, the parts are kept, memos and all, though the rule matches.
            #expect(try harness.cli("import", "undo", try #require(Self.undoId(whole))).status == 0)
            #expect(try harness.cli("category", "add", "Household", "--kind", "expense").status == 0)
            let split = try harness.cli("import", "qif", file, "--wallet", "Checking", "--rules", rules)
            #expect(split.status == 0, "\(split.stderr)")
            #expect(split.stderr.contains("line 2: its split parts keep their own categories; the rule's category Shopping is not used"), "\(split.stderr)")
            let row = try #require(try Self.transactions(harness, wallet: "Checking").first)
            #expect(row.splits.map(\.amount) == ["18.00", "12.00"])
            #expect(row.splits.map(\.memo) == ["Vegetables", "Bin bags"])
            #expect(row.splits.map(\.categoryId) == [try id("Food/Groceries"), try id("Household")].compactMap { $0 })
            #expect(row.tags == ["shop"])
        }

        @Test func aCP1252CSVWithGermanHeadersAndEuroAmountsImports() throws {
            let harness = try Self.start([["wallet", "add", "Giro", "--currency", "EUR"]])
            // Windows-1252: ä 0xE4, ü 0xFC, € 0x80.
            var bytes = Array("Buchungstag;Wertstellung;Auftraggeber/Empf".utf8) + [0xE4] + Array("nger;Verwendungszweck;Betrag;W".utf8) + [0xE4] + Array("hrung\n".utf8)
            bytes += Array("23.11.2026;23.11.2026;B".utf8) + [0xE4] + Array("ckerei M".utf8) + [0xFC] + Array("ller;Br".utf8) + [0xF6] + Array("tchen;-3,20 ".utf8) + [0x80] + Array(";EUR\n".utf8)
            bytes += Array("24.11.2026;24.11.2026;ACME GmbH;Gehalt;2.500,00 ".utf8) + [0x80] + Array(";EUR\n".utf8)
            let file = harness.home.root.appendingPathComponent("umsaetze.csv")
            try Data(bytes).write(to: file)
            let result = try harness.cli("import", "csv", file.path, "--wallet", "Giro")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("is not UTF-8: read as Windows-1252"), "\(result.stderr)")
            let imported = try Self.transactions(harness, wallet: "Giro")
            #expect(Set(imported.compactMap(\.notes)) == ["Bäckerei Müller Brötchen", "ACME GmbH Gehalt"])
            #expect(try Self.balance(harness, wallet: "Giro") == "2496.80")
            // Read as UTF-8 on request, the same bytes are refused, not mangled.
            let strict = try harness.cli("import", "csv", file.path, "--wallet", "Giro", "--encoding", "utf-8")
            #expect(strict.status == 1)
            #expect(strict.stderr.contains("line 1: byte 0xE4 is not UTF-8"), "\(strict.stderr)")
        }

        @Test func aShippedBankMappingReadsThatBanksExport() throws {
            let harness = try Self.start([["wallet", "add", "Giro", "--currency", "EUR"]])
            let listed = try harness.cli("import", "mappings")
            #expect(listed.stdout.contains("ing-de"), "\(listed.stdout)")
            let file = try Self.write("""
                Umsatzanzeige;Datei erstellt am: 30.11.2026 10:00

                IBAN;DE12 5001 0517 0123 4567 89
                Kontoname;Girokonto
                Bank;ING
                Zeitraum;01.11.2026 - 30.11.2026
                Saldo;1.234,56;EUR

                Sortierung;Datum absteigend

                Buchung;Wertstellungsdatum;Auftraggeber/Empfänger;Buchungstext;Verwendungszweck;Saldo;Währung;Betrag;Währung
                28.11.2026;28.11.2026;REWE Markt;Lastschrift;Einkauf;1.234,56;EUR;-23,45;EUR
                27.11.2026;27.11.2026;ACME GmbH;Gehalt/Rente;Gehalt November;1.258,01;EUR;1.200,00;EUR

                """, "ing.csv", harness)
            let imported = try Self.importTwiceAndUndo(harness, format: "csv", file: file, wallet: "Giro", extra: ["--mapping", "ing-de"], rows: 2)
            #expect(Set(imported.compactMap(\.notes)) == ["REWE Markt Einkauf", "ACME GmbH Gehalt November"])
            #expect(imported.map(\.amount).sorted() == ["1200.00", "23.45"])
            // `import mappings NAME --json` writes a mapping file that --mapping takes as it is.
            let written = try harness.cli("import", "mappings", "ing-de", "--json")
            #expect(written.status == 0, "\(written.stderr)")
            let mappingFile = try Self.write(written.stdout, "ing.json", harness)
            let fromFile = try Self.decode(TransactionImportReply.self, try harness.cli("import", "csv", file, "--wallet", "Giro", "--mapping", mappingFile, "--dry-run", "--json"))
            #expect(fromFile.imported == 2)
            let unknownName = try harness.cli("import", "mappings", "sparkasse")
            #expect(unknownName.status == 1)
            #expect(unknownName.stderr.contains("no shipped mapping named sparkasse"), "\(unknownName.stderr)")

            let unknown = try harness.cli("import", "csv", file, "--wallet", "Giro", "--mapping", "sparkasse")
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no mapping file or shipped mapping named sparkasse"), "\(unknown.stderr)")
        }
    }
}
