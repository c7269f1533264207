import LedgerlyInterchange
import Testing

@Suite struct BankCSVDetectionTests {
    private func detectError(_ text: String) -> BankStatementError? {
        do {
            _ = try BankCSVMapping.detect(text: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func signedLayoutWithDayFirstDates() throws {
        let mapping = try BankCSVMapping.detect(
            header: ["Transaction Date", "Description", "Amount (EUR)", "Balance"],
            rows: [["03/04/2026", "A", "-1.50", "10"], ["13/04/2026", "B", "2", "12"]]
        )
        #expect(mapping.date == .name("Transaction Date"))
        #expect(mapping.amounts == .signed(.name("Amount (EUR)")))
        #expect(mapping.descriptionColumns == [.name("Description")])
        #expect(mapping.currency == nil)
        #expect(mapping.dateFormat == "D/M/YYYY")
        #expect(mapping.decimalSeparator == ".")
        #expect(mapping.thousandsSeparator == nil)
    }

    @Test func monthFirstAndIsoDates() throws {
        let us = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["04/03/2026", "A", "1"], ["12/31/2026", "B", "1"]])
        #expect(us.dateFormat == "M/D/YYYY")
        let iso = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["2026-03-04", "A", "1"]])
        #expect(iso.dateFormat == "YYYY-MM-DD")
        let dotted = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["4.3.2026", "A", "1"]])
        #expect(dotted.dateFormat == "D.M.YYYY")
    }

    @Test func ambiguousDatesAskForAMapping() {
        #expect(throws: BankStatementError.self) {
            try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["03/04/2026", "A", "1"], ["05/06/2026", "B", "1"]])
        }
        do {
            _ = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["03/04/2026", "A", "1"]])
        } catch {
            #expect(error.message.contains("ambiguous"))
            #expect(error.message.contains("dateFormat"))
        }
        do {
            _ = try BankCSVMapping.detect(header: ["Date", "Payee", "Amount"], rows: [["2026.03.04", "A", "1"]])
            Issue.record("accepted an unknown date format")
        } catch {
            #expect(error.message.contains("no known format"))
        }
    }

    /// The date named is the first one rejected, with its line, not the file's first date.
    @Test func anUnreadableDateIsNamedWithItsLine() {
        #expect(detectError("Date,Payee,Amount\n2026-03-04,A,1\n2026-03-05,B,1\n2026.03.06,C,1\n")
            == BankStatementError(line: 4, "date \"2026.03.06\" in column \"Date\" is in no known format: write a mapping file with \"dateFormat\""))
    }

    @Test func debitCreditCurrencyAndPayeePlusMemo() throws {
        let mapping = try BankCSVMapping.detect(
            header: ["Booking Date", "Value Date", "Payee", "Memo", "Money Out", "Money In", "CCY"],
            rows: [["2026-03-01", "2026-03-02", "Shop", "card", "1,234.50", "", "EUR"]]
        )
        #expect(mapping.date == .name("Booking Date"))
        #expect(mapping.amounts == .debitCredit(debit: .name("Money Out"), credit: .name("Money In")))
        #expect(mapping.currency == .name("CCY"))
        #expect(mapping.descriptionColumns == [.name("Payee"), .name("Memo")])
        #expect(mapping.decimalSeparator == ".")
        #expect(mapping.thousandsSeparator == ",")
    }

    @Test(arguments: [
        (["12,34", "-5"], ",", nil as String?),
        (["-1.234,56", "3,5"], ",", "."),
        (["1 234,56"], ",", " "),
        (["1,234.56", "12.5"], ".", ","),
        (["1,234,567"], ".", ","),
        (["1'234.50"], ".", "'"),
        (["12", "-7"], ".", nil),
        (["1,234"], ".", ","),
    ])
    func decimalAndThousandsGuesses(amounts: [String], decimal: String, thousands: String?) throws {
        let mapping = try BankCSVMapping.detect(header: ["Date", "Text", "Amount"], rows: amounts.map { ["2026-03-01", "x", $0] })
        #expect(mapping.decimalSeparator == decimal)
        #expect(mapping.thousandsSeparator == thousands)
    }

    @Test func mixedDecimalSeparatorsAreAnError() {
        #expect(throws: BankStatementError.self) {
            try BankCSVMapping.detect(header: ["Date", "Text", "Amount"], rows: [["2026-03-01", "x", "12,34"], ["2026-03-01", "x", "5.5"]])
        }
    }

    @Test func missingColumnsAreErrors() {
        #expect(throws: BankStatementError.self) { try BankCSVMapping.detect(header: ["When", "Text", "Amount"]) }
        #expect(throws: BankStatementError.self) { try BankCSVMapping.detect(header: ["Date", "Text", "Money Out"]) }
        #expect(throws: BankStatementError.self) { try BankCSVMapping.detect(header: ["Date", "Amount", "Balance"]) }
    }

    @Test func detectsDelimiterPreambleAndFormatsFromText() throws {
        let text = "\u{FEFF}Account;DE00 1234\r\nPeriod;\"March, 2026\"\r\n\r\n"
            + "Date;Narrative;Amount;Currency\r\n"
            + "01.03.2026;\"Rent, March\";-1.200,00;EUR\r\n"
            + "15.03.2026;Salary;3.000,50;\r\n"
            + "16.03.2026;Coffee;-3,5;USD\r\n"
        let mapping = try BankCSVMapping.detect(text: text)
        #expect(mapping.delimiter == .semicolon)
        #expect(mapping.skipLines == 3)
        #expect(mapping.dateFormat == "D.M.YYYY")
        #expect(mapping.decimalSeparator == ",")
        #expect(mapping.thousandsSeparator == ".")
        #expect(mapping.currency == .name("Currency"))

        let rows = try BankCSVImport.parse(text: text, mapping: mapping, defaultCurrency: "EUR")
        #expect(rows.map(\.line) == [5, 6, 7])
        #expect(rows.map(\.amount) == ["1200.00", "3000.50", "3.50"])
        #expect(rows.map(\.currency) == ["EUR", "EUR", "USD"])
        #expect(rows.map(\.description) == ["Rent, March", "Salary", "Coffee"])
    }

    @Test func parseWithoutAMappingDetectsOne() throws {
        let rows = try BankCSVImport.parse(text: "Date,Payee,Amount\n31/01/2026,Shop,-4.5\n", mapping: nil, defaultCurrency: "EUR")
        #expect(rows.map(\.date) == ["2026-01-31"])
        #expect(rows.map(\.amount) == ["4.50"])
        #expect(throws: BankStatementError.self) {
            try BankCSVImport.parse(text: "Date,Payee,Amount\n01/02/2026,Shop,-4.5\n", mapping: nil, defaultCurrency: "EUR")
        }
    }

    @Test func commaFileWithSemicolonsInDescriptions() throws {
        let mapping = try BankCSVMapping.detect(text: "Date,Description,Amount\n2026-03-01,a;b,1.5\n")
        #expect(mapping.delimiter == .comma)
        #expect(mapping.skipLines == 0)
    }

    @Test func undetectableFileNamesWhatIsMissing() {
        let error = detectError("When,What,How much\n2026-03-01,a,1\n")
        #expect(error?.message.contains("no date column") == true)
    }
}
