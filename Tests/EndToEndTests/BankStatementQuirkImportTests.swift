import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Real bank files read whole through the real `ledgerly` (issue 45, items 8–13): what a
    /// file holds is imported or refused naming why, never dropped with a successful exit.
    @Suite struct BankStatementQuirkImportTests {
        /// OFX 1.x SGML whose `<BANKTRANLIST>` is never closed: 3 transactions, −209.36 BRL.
        static let cardWithoutListEnd = """
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
            <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>
            <CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
            <CCSTMTRS><CURDEF>BRL<CCACCTFROM><ACCTID>5555</CCACCTFROM>
            <BANKTRANLIST><DTSTART>20261101<DTEND>20261130
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261103<TRNAMT>-13.00<FITID>C1<MEMO>Padaria</STMTTRN>
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261104<TRNAMT>-162.90<FITID>C2<MEMO>Mercado</STMTTRN>
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261105<TRNAMT>-33.46<FITID>C3<MEMO>Farmacia</STMTTRN>
            <LEDGERBAL><BALAMT>-209.36<DTASOF>20261130</LEDGERBAL>
            </CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1>
            </OFX>

            """

        /// A QIF with a comment, a category list, an investment account beside the cash one, a
        /// record of zero, day/month/two-digit-year dates and a split with a transfer part.
        static let cashWithQuirks = """
            # exported by a budgeting program
            !Type:Cat
            NFood
            E
            ^
            !Account
            NMy Cash
            TCash
            ^
            !Type:Cash
            D23/10/13
            T-6.50
            LFood
            ^
            D24/10/13
            T0.00
            POpening balance
            ^
            D25/10/13
            T-48.00
            PVia Roma
            S[My Card]
            $-31.00
            SFood
            $-17.00
            ^
            !Account
            NBroker
            TInvst
            ^
            !Type:Invst
            D25/07/13
            NShrsIn
            YIBM
            T1000.00
            ^

            """

        typealias Base = BankFormatImportTests

        /// What `import … --json` prints (the CLI's `StatementImportReply`), as a script reads it.
        struct JSONReply: Decodable {
            var importId: String?
            var imported: Int
            var dryRun: Bool
            var notes: [String]
        }

        /// The notes an import printed on standard error, without their `note: ` mark.
        static func notes(_ stderr: String) -> [String] {
            stderr.split(separator: "\n").compactMap { line in line.hasPrefix("note: ") ? String(line.dropFirst(6)) : nil }
        }

        /// With `--json`, standard output is JSON whatever the file holds, and it carries every
        /// note standard error shows (the file's own, the transfer parts', the categories', the
        /// encoding's), so a script is told all a person is.
        @Test func jsonCarriesEveryNoteAndAStatementWithoutTransactionsIsJSONToo() throws {
            let harness = try Base.start([["wallet", "add", "Nubank", "--currency", "BRL"], ["wallet", "add", "My Cash", "--currency", "USD"],
                                          ["wallet", "add", "My Card", "--currency", "USD"], ["category", "add", "Food", "--kind", "expense"]])

            // Notes of every kind: the reader's (comment, sections, zero), a transfer part's, a
            // transfer category's (L[…]), and the encoding's (a Windows-1252 byte).
            let quirks = Self.cashWithQuirks.replacingOccurrences(of: "LFood", with: "L[My Card]").replacingOccurrences(of: "Via Roma", with: "Caf\u{E9}")
            let file = harness.home.root.appendingPathComponent("cash-cp1252.qif")
            try #require(quirks.data(using: .windowsCP1252)).write(to: file)
            let result = try harness.cli("import", "qif", file.path, "--wallet", "My Cash", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            let reply = try JSONDecoder().decode(JSONReply.self, from: Data(result.stdout.utf8))
            #expect(reply.imported == 3)
            #expect(reply.importId?.hasPrefix("qif-") == true)
            let printed = Self.notes(result.stderr)
            #expect(printed.count == 9, "\(printed)")
            #expect(reply.notes == printed)
            for kind in ["not UTF-8", "comment line", "3 dates have a two-digit year, read as 2013", "section !Type:Invst skipped", "record of zero left out", "imported as transfer between wallets",
                         "[My Card] is a transfer to or from another account"] {
                #expect(reply.notes.contains { $0.contains(kind) }, "\(kind) in \(reply.notes)")
            }

            // A statement without a single transaction: JSON on standard output, imported 0, no
            // import id (nothing was sent), exit 0.
            let empty = try Base.write(Self.cardWithoutListEnd.split(separator: "\n").filter { !$0.hasPrefix("<STMTTRN>") }.joined(separator: "\n"), "empty.ofx", harness)
            let nothing = try harness.cli("import", "ofx", empty, "--wallet", "Nubank", "--json")
            #expect(nothing.status == 0, "\(nothing.stderr)")
            let none = try JSONDecoder().decode(JSONReply.self, from: Data(nothing.stdout.utf8))
            #expect(none.imported == 0)
            #expect(none.importId == nil)
            #expect(none.notes.isEmpty)
            #expect(try harness.cli("import", "ofx", empty, "--wallet", "Nubank").stdout.contains("holds no transactions: nothing to import."))
        }

        @Test func statementQuirksImportWholeOrAreRefusedNamingWhy() throws {
            let harness = try Base.start([["wallet", "add", "Nubank", "--currency", "BRL"], ["wallet", "add", "My Cash", "--currency", "USD"],
                                          ["wallet", "add", "My Card", "--currency", "USD"], ["category", "add", "Food", "--kind", "expense"]])

            // Item 8: a list never closed is read whole.
            let card = try Base.write(Self.cardWithoutListEnd, "card.ofx", harness)
            let cardResult = try harness.cli("import", "ofx", card, "--wallet", "Nubank")
            #expect(cardResult.status == 0, "\(cardResult.stderr)")
            #expect(cardResult.stdout.contains("Imported 3 of 3 rows"), "\(cardResult.stdout)")
            #expect(try Base.balance(harness, wallet: "Nubank") == "-209.36")

            // Item 8's guard: a statement whose transactions are all left out exits non-zero, saying why.
            let zero = try Base.write(Self.cardWithoutListEnd.replacingOccurrences(of: "<TRNAMT>-13.00", with: "<TRNAMT>0.00")
                .replacingOccurrences(of: "<TRNAMT>-162.90", with: "<TRNAMT>0.00").replacingOccurrences(of: "<TRNAMT>-33.46", with: "<TRNAMT>0.00"), "zero.ofx", harness)
            let zeroResult = try harness.cli("import", "ofx", zero, "--wallet", "Nubank")
            #expect(zeroResult.status == 1)
            #expect(zeroResult.stderr.contains("holds 3 transactions but none can be imported: 3 transactions of zero left out, on lines 15, 16, 17"), "\(zeroResult.stderr)")

            // Items 10–13: comments and the investment section passed over with notes, the zero
            // record left out with a note, 2013 read as 2013, the transfer part a transfer.
            let cash = try Base.write(Self.cashWithQuirks, "cash.qif", harness)
            let imported = try harness.cli("import", "qif", cash, "--wallet", "My Cash")
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("Imported 3 of 3 rows"), "\(imported.stdout)")
            for note in ["1 comment line (#) skipped, on line 1", "line 2: section !Type:Cat skipped (1 record)", "line 27: section !Account skipped (1 record, \"Broker\")",
                         "line 31: section !Type:Invst skipped (1 record): an investment account", "1 record of zero left out, on line 16",
                         "line 19: split part -31.00 to My Card (line 22) imported as transfer between wallets; the other part (-17.00) as one transaction of this wallet"] {
                #expect(imported.stderr.contains(note), "\(note) in \(imported.stderr)")
            }
            let rows = try Base.transactions(harness, wallet: "My Cash")
            #expect(Set(rows.map(\.date)) == ["2013-10-23", "2013-10-25"])
            #expect(try Base.balance(harness, wallet: "My Cash") == "-54.50")
            #expect(try Base.balance(harness, wallet: "My Card") == "31.00")
            let again = try Base.decode(TransactionImportReply.self, try harness.cli("import", "qif", cash, "--wallet", "My Cash", "--json"))
            #expect(again.imported == 0)
            #expect(again.duplicates.count == 3)

            // Item 11: a transfer part naming no wallet refuses the file, naming its line.
            let missing = try Base.write(Self.cashWithQuirks.replacingOccurrences(of: "[My Card]", with: "[Savings]"), "missing.qif", harness)
            let refused = try harness.cli("import", "qif", missing, "--wallet", "My Card")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("line 22: the split part [Savings] -31.00 is a transfer, but this ledger has no wallet named 'Savings'; nothing was imported"), "\(refused.stderr)")
            #expect(try Base.balance(harness, wallet: "My Card") == "31.00")
        }
    }
}
