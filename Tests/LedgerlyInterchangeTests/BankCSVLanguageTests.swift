import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

/// CSV files as European banks write them: Windows-1252 bytes, German, French and Spanish
/// headers, amounts with a currency mark, and the shipped mappings.
@Suite struct BankCSVLanguageTests {
    /// `text` encoded as Windows-1252 (every character here is in it).
    static func cp1252(_ text: String) -> [UInt8] {
        let high: [Character: UInt8] = ["€": 0x80, "„": 0x84, "“": 0x93, "”": 0x94, "–": 0x96]
        return text.flatMap { character -> [UInt8] in
            if let byte = high[character] { return [byte] }
            let value = character.unicodeScalars.first!.value
            precondition(value < 0x100, "\(character) is not in this test's CP1252")
            return [UInt8(value)]
        }
    }

    @Test func aFileThatIsNotUTF8IsReadAsCP1252WithANote() throws {
        let bytes = Self.cp1252("Buchungstag;Empfänger;Betrag\n03.11.2026;Bäckerei Müller;-3,20 €\n")
        #expect(String(validating: bytes, as: UTF8.self) == nil)
        let decoded = try StatementTextEncoding.decode(bytes, as: nil)
        #expect(decoded.text.contains("Bäckerei Müller;-3,20 €"))
        #expect(decoded.note?.contains("Windows-1252") == true)
        let rows = try BankCSVImport.parse(text: decoded.text, mapping: nil, defaultCurrency: "EUR")
        #expect(rows.map(\.description) == ["Bäckerei Müller"])
        #expect(rows.map(\.amount) == ["3.20"])
        // Latin-1 has only control characters at 0x80–0x9F: such a byte is refused, not read as one.
        #expect(throws: BankStatementError(line: 2, "byte 0x80 is a control character in Latin-1, not text: the file is probably Windows-1252 (--encoding cp1252)")) {
            try StatementTextEncoding.decode(bytes, as: .latin1)
        }
        let latin1 = try StatementTextEncoding.decode(Self.cp1252("Empfänger;Betrag\nBäckerei;-3,20\n"), as: .latin1)
        #expect(latin1.note == nil)
        #expect(latin1.text.contains("Bäckerei;-3,20"))
    }

    @Test func bytesThatAreNoCharacterAreRefusedNotReplaced() {
        // 0x81 has no character in Windows-1252; 0xE4 alone is not UTF-8.
        #expect(throws: BankStatementError(line: 2, "byte 0x81 has no character in Windows-1252 (the file is not UTF-8 either): give the file's encoding with --encoding")) {
            try StatementTextEncoding.decode(Array("Date\n".utf8) + [0x81], as: nil)
        }
        #expect(throws: BankStatementError(line: 3, "byte 0xE4 is not UTF-8: give the file's encoding with --encoding latin1 or cp1252")) {
            try StatementTextEncoding.decode(Array("a\nb\n".utf8) + [0xE4, 0x0A], as: .utf8)
        }
        #expect((try? StatementTextEncoding.decode(Array("ü".utf8), as: nil))?.note == nil)
    }

    @Test(arguments: [
        ("Buchungstag;Wertstellung;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung\n23.11.2026;23.11.2026;LIDL;Einkauf;-12,50;EUR\n", "LIDL Einkauf", "12.50"),
        ("Date opération;Libellé;Débit;Crédit;Devise\n23/11/2026;CARTE MONOPRIX;12,50;;EUR\n", "CARTE MONOPRIX", "12.50"),
        ("Fecha;Concepto;Importe;Divisa\n23/11/2026;Mercadona;-12,50;EUR\n", "Mercadona", "12.50"),
    ])
    func headersInGermanFrenchAndSpanishAreFound(text: String, description: String, amount: String) throws {
        let rows = try BankCSVImport.parse(text: text, mapping: nil, defaultCurrency: "EUR")
        #expect(rows.map(\.date) == ["2026-11-23"])
        #expect(rows.map(\.description) == [description])
        #expect(rows.map(\.amount) == [amount])
        #expect(rows.map(\.kind) == [.expense])
    }

    @Test func theBookingDateIsPreferredToTheValueDate() throws {
        let mapping = try BankCSVMapping.detect(text: "Wertstellung;Buchungstag;Verwendungszweck;Betrag\n04.11.2026;03.11.2026;x;1,00\n")
        #expect(mapping.date == .name("Buchungstag"))
    }

    @Test func theDKBMappingFindsItsHeaderAfterThePreamble() throws {
        let text = """
            "Girokonto";"DE89370400440532013000"
            ""
            "Kontostand vom 30.11.2026:";"1.234,56 €"
            ""
            "Buchungsdatum";"Wertstellung";"Status";"Zahlungspflichtige*r";"Zahlungsempfänger*in";"Verwendungszweck";"Umsatztyp";"IBAN";"Betrag (€)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz"
            "28.11.26";"28.11.26";"Gebucht";"Erika Mustermann";"REWE Markt GmbH";"Einkauf 27.11.";"Ausgang";"DE02100100109307118603";"-23,45 €";"";"";""
            "27.11.26";"27.11.26";"Gebucht";"ACME GmbH";"Erika Mustermann";"Gehalt November";"Eingang";"DE02100100109307118603";"2.500,00 €";"";"";""

            """
        let shipped = try #require(BankCSVShippedMapping.named("DKB"))
        let mapping = try shipped.mapping(for: text)
        #expect(mapping.skipLines == 4)
        let rows = try BankCSVImport.parse(text: text, mapping: mapping, defaultCurrency: "EUR")
        #expect(rows.map(\.date) == ["2026-11-28", "2026-11-27"])
        #expect(rows.map(\.amount) == ["23.45", "2500.00"])
        #expect(rows.map(\.kind) == [.expense, .income])
        #expect(rows.map(\.description) == ["REWE Markt GmbH Einkauf 27.11.", "Erika Mustermann Gehalt November"])
        #expect(rows.map(\.line) == [6, 7])

        #expect(throws: BankStatementError.self) { try shipped.mapping(for: "Date,Description,Amount\n2026-01-01,x,1\n") }

        // Written out as a mapping file (`ledgerly import mappings dkb`), it reads the same file:
        // the file says to find the header, since the preamble's length varies.
        let file = try BankCSVMapping.decode(json: try JSONEncoder().encode(shipped.mapping))
        #expect(file.findHeader)
        #expect(try BankCSVImport.parse(text: text, mapping: file, defaultCurrency: "EUR") == rows)
    }

    /// The header is looked for in the first `maximumPreambleLines + 1` lines, and the message says so.
    @Test func aMappingThatFindsItsHeaderLooksAsFarAsItSays() throws {
        let mapping = BankCSVMapping(date: .name("Date"), amounts: .signed(.name("Amount")), description: [.name("Payee")], findHeader: true)
        let preamble = String(repeating: "x\n", count: BankCSVMapping.maximumPreambleLines)
        #expect(try mapping.locatingHeader(in: preamble + "Date,Payee,Amount\n").skipLines == BankCSVMapping.maximumPreambleLines)
        #expect(throws: BankStatementError(line: nil, "no header with the mapping's columns (\"date\", \"amount\", \"payee\") in the first 21 lines")) {
            try mapping.locatingHeader(in: preamble + "x\nDate,Payee,Amount\n")
        }
        #expect(throws: BankStatementError(line: nil, "give \"findHeader\" or \"skipLines\", not both")) {
            try BankCSVMapping(skipLines: 2, date: .name("Date"), amounts: .signed(.name("Amount")), description: [.name("Payee")], findHeader: true).validate()
        }
    }

    @Test func everyShippedMappingIsValid() throws {
        #expect(BankCSVShippedMapping.all.map(\.name) == ["dkb", "ing-de", "n26"])
        for shipped in BankCSVShippedMapping.all { try shipped.mapping.validate() }
    }
}

extension BankCSVLanguageTests {
    /// A header the English names already read keeps the mapping it had before the German,
    /// French and Spanish names were added: its description (and so every row's fingerprint)
    /// must not change, or re-importing an overlapping statement would import it all again.
    @Test func aHeaderTheEnglishNamesReadKeepsItsEarlierMapping() throws {
        let detail = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount", "Detail"], rows: [["2026-11-03", "LIDL", "-12.50", "card 1234"]])
        #expect(detail.descriptionColumns == [.name("Payee")])
        let rows = try BankCSVImport.parse(text: "Date,Payee,Amount,Detail\n2026-11-03,LIDL,-12.50,card 1234\n", mapping: nil, defaultCurrency: "EUR")
        #expect(rows.map(\.description) == ["LIDL"])
        // The English name with a qualifier still wins over an exact name in another language.
        let qualified = try BankCSVMapping.detect(header: ["Date (UTC)", "Buchung", "Description", "Amount (EUR)", "Betrag"])
        #expect(qualified.date == .name("Date (UTC)"))
        #expect(qualified.amounts == .signed(.name("Amount (EUR)")))
        #expect(qualified.descriptionColumns == [.name("Description")])
        // Where English names find nothing, the others are read: payee and text both.
        let german = try BankCSVMapping.detect(header: ["Buchungstag", "Empfänger", "Verwendungszweck", "Betrag"])
        #expect(german.descriptionColumns == [.name("Empfänger"), .name("Verwendungszweck")])
    }
}

extension BankCSVLanguageTests {
    /// Byte order marks say what a file is: UTF-16 is named and refused (not read as CP1252
    /// mojibake), and a file marked UTF-8 with a bad byte is an error, not a CP1252 fallback.
    @Test func byteOrderMarksSayTheEncoding() throws {
        #expect(throws: BankStatementError(line: nil, "the file is UTF-16 (little-endian, by its byte order mark): save it as UTF-8 and import that")) {
            try StatementTextEncoding.decode([0xFF, 0xFE] + Array("D\0a\0".utf8), as: nil)
        }
        #expect(throws: BankStatementError(line: nil, "the file is UTF-16 (big-endian, by its byte order mark): save it as UTF-8 and import that")) {
            try StatementTextEncoding.decode([0xFE, 0xFF, 0, 0x44], as: .cp1252)
        }
        #expect(throws: BankStatementError(line: 2, "byte 0xE4 is not UTF-8, though the file starts with UTF-8's byte order mark: fix the file, or give its encoding with --encoding")) {
            try StatementTextEncoding.decode([0xEF, 0xBB, 0xBF] + Array("Date\n".utf8) + [0xE4, 0x0A], as: nil)
        }
        let marked = try StatementTextEncoding.decode([0xEF, 0xBB, 0xBF] + Array("Datum;Empfänger\n".utf8), as: nil)
        #expect(marked.note == nil)
        #expect(marked.text == "\u{FEFF}Datum;Empfänger\n")
    }

    @Test func encodingsTakeTheirUsualSpellings() {
        #expect(["utf-8", "UTF8", "utf8"].map(StatementTextEncoding.init(name:)) == [.utf8, .utf8, .utf8])
        #expect(["latin1", "ISO-8859-1", "iso8859-1", "latin-1"].map(StatementTextEncoding.init(name:)) == [.latin1, .latin1, .latin1, .latin1])
        #expect(["cp1252", "Windows-1252", "windows1252"].map(StatementTextEncoding.init(name:)) == [.cp1252, .cp1252, .cp1252])
        #expect(StatementTextEncoding(name: "utf-16") == nil)
    }
}
