import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct BankCSVImportTests {
    private func rows(_ text: String, _ mapping: BankCSVMapping = signedMapping(), currency: String = "EUR") throws -> [BankStatementRow] {
        try BankCSVImport.parse(text: text, mapping: mapping, defaultCurrency: currency)
    }

    // MARK: Amounts

    @Test func signedAmountsGiveKindAndNormalisedAmount() throws {
        let result = try rows("Date,Description,Amount\n2026-03-01,Coffee,-3.5\n2026-03-02,Salary,+2500\n2026-03-03,Refund,0.10\n")
        #expect(result.map(\.kind) == [.expense, .income, .income])
        #expect(result.map(\.amount) == ["3.50", "2500.00", "0.10"])
        #expect(result.map(\.line) == [2, 3, 4])
        #expect(result.map(\.currency) == ["EUR", "EUR", "EUR"])
        #expect(result[0].date == "2026-03-01")
        #expect(result[0].description == "Coffee")
    }

    @Test func negativeIsExpenseFalseInvertsForCardStatements() throws {
        let result = try rows("Date,Description,Amount\n2026-03-01,Coffee,3.50\n2026-03-02,Payment received,-100\n", signedMapping(negativeIsExpense: false))
        #expect(result.map(\.kind) == [.expense, .income])
        #expect(result.map(\.amount) == ["3.50", "100.00"])
    }

    @Test func decimalCommaWithThousandsSeparators() throws {
        let text = "Date;Description;Amount\n2026-03-01;Rent;-1.234,56\n2026-03-02;Bonus;12.345.678,9\n2026-03-03;Tiny;,5\n"
        var mapping = signedMapping(decimal: ",", thousands: ".")
        mapping.delimiter = .semicolon
        let result = try rows(text, mapping)
        #expect(result.map(\.amount) == ["1234.56", "12345678.90", "0.50"])
        #expect(result.map(\.kind) == [.expense, .income, .income])
    }

    @Test func spaceAndApostropheThousands() throws {
        let spaced = try rows("Date,Description,Amount\n2026-03-01,A,\"-1 234,50\"\n2026-03-02,B,\"2\u{00A0}000,00\"\n", signedMapping(decimal: ",", thousands: " "))
        #expect(spaced.map(\.amount) == ["1234.50", "2000.00"])
        let swiss = try rows("Date,Description,Amount\n2026-03-01,A,1'234.50\n", signedMapping(thousands: "'"))
        #expect(swiss.map(\.amount) == ["1234.50"])
    }

    @Test func parenthesesTrailingMinusAndUnicodeMinusAreNegative() throws {
        let result = try rows("Date,Description,Amount\n2026-03-01,A,(12.50)\n2026-03-02,B,7.25-\n2026-03-03,C,\u{2212}4\n2026-03-04,D,\"( 1,000.00 )\"\n", signedMapping(thousands: ","))
        #expect(result.map(\.kind) == [.expense, .expense, .expense, .expense])
        #expect(result.map(\.amount) == ["12.50", "7.25", "4.00", "1000.00"])
    }

    @Test func malformedAmountsAreErrorsNamingLineColumnAndText() {
        let mapping = signedMapping(decimal: ",", thousands: ".")
        let error = importError("Date,Description,Amount\n2026-03-01,A,\"1,00\"\n2026-03-02,B,\"12,3x\"\n", mapping)
        #expect(error?.line == 3)
        #expect(error?.description.hasPrefix("line 3: amount \"12,3x\" in column \"Amount\" is not a number") == true)

        for bad in ["1.23,45", "1..2", "12,", "--5", "(-5)", "1 234", "abc", "1,2,3"] {
            let error = importError("Date,Description,Amount\n2026-03-01,A,\"\(bad)\"\n", mapping)
            #expect(error?.line == 2, "\(bad)")
            #expect(error?.message.contains("is not a number") == true, "\(bad): \(String(describing: error))")
        }
    }

    @Test func aMarkOfTheRowsCurrencyIsAccepted() throws {
        let text = "Date;Description;Amount\n2026-03-01;A;12,50 €\n2026-03-02;B;€12,50\n2026-03-03;C;-1.234,56 EUR\n2026-03-04;D;EUR -3,20\n2026-03-05;E;-€ 7,00\n2026-03-06;F;€ -8,00\n"
        var mapping = signedMapping(decimal: ",", thousands: ".")
        mapping.delimiter = .semicolon
        let result = try rows(text, mapping)
        #expect(result.map(\.amount) == ["12.50", "12.50", "1234.56", "3.20", "7.00", "8.00"])
        #expect(result.map(\.kind) == [.income, .income, .expense, .expense, .expense, .expense])
        // A symbol several currencies share is accepted where the row's currency is one of them.
        let dollars = try rows("Date,Description,Amount\n2026-03-01,A,-$5.00\n2026-03-02,B,US$ 7\n", signedMapping(), currency: "USD")
        #expect(dollars.map(\.amount) == ["5.00", "7.00"])
    }

    @Test func aMarkOfAnotherCurrencyIsRefusedNamingLineAndColumn() {
        for bad in ["$5", "12.50 USD", "£3", "¥100", "GBP 3"] {
            let error = importError("Date,Description,Amount\n2026-03-01,A,1\n2026-03-02,B,\(bad)\n", signedMapping())
            #expect(error?.line == 3, "\(bad)")
            #expect(error?.message.contains("in column \"Amount\" is marked") == true, "\(bad): \(String(describing: error))")
            #expect(error?.message.contains("not EUR") == true, "\(bad): \(String(describing: error))")
        }
        // An unknown symbol is not taken for the row's currency either.
        let unknown = importError("Date,Description,Amount\n2026-03-01,A,₿12\n", signedMapping())
        #expect(unknown?.message.contains("currency symbol or code this reader does not know") == true, "\(String(describing: unknown))")
    }

    @Test func zeroAmountIsAnError() {
        let error = importError("Date,Description,Amount\n2026-03-01,A,1\n2026-03-02,Declined,0.00\n", signedMapping())
        #expect(error?.line == 3)
        #expect(error?.message.contains("is zero") == true)
    }

    @Test func emptyAmountIsAnError() {
        let error = importError("Date,Description,Amount\n2026-03-01,A,\n", signedMapping())
        #expect(error?.line == 2)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func debitAndCreditColumns() throws {
        let mapping = BankCSVMapping(
            date: .name("Date"), amounts: .debitCredit(debit: .name("Money Out"), credit: .name("Money In")),
            description: [.name("Description")]
        )
        let text = "Date,Description,Money Out,Money In\n"
            + "2026-03-01,Groceries,12.40,\n"
            + "2026-03-02,Salary,,2500\n"
            + "2026-03-03,Card,-7.5,0.00\n"
            + "2026-03-04,Trailing cells dropped,3\n"
        let result = try rows(text, mapping)
        #expect(result.map(\.kind) == [.expense, .income, .expense, .expense])
        #expect(result.map(\.amount) == ["12.40", "2500.00", "7.50", "3.00"])

        let both = importError("Date,Description,Money Out,Money In\n2026-03-01,X,1,2\n", mapping)
        #expect(both?.line == 2)
        #expect(both?.message.contains("both debit") == true)
        let neither = importError("Date,Description,Money Out,Money In\n2026-03-01,X,,\n", mapping)
        #expect(neither?.line == 2)
        #expect(neither?.message.contains("neither debit") == true)
        let bad = importError("Date,Description,Money Out,Money In\n2026-03-01,X,,1x\n", mapping)
        #expect(bad?.description.hasPrefix("line 2: credit \"1x\" in column \"Money In\" is not a number") == true)
    }

    // MARK: Currencies

    @Test func currencyColumnWithFallbackToDefault() throws {
        let mapping = BankCSVMapping(date: .name("Date"), amounts: .signed(.name("Amount")), currency: .name("CCY"), description: [.name("Description")])
        let result = try rows("Date,Description,Amount,CCY\n2026-03-01,A,-12.5,usd\n2026-03-02,B,-1200,JPY\n2026-03-03,C,-1,\n2026-03-04,D,-0.00012345,BTC\n", mapping)
        #expect(result.map(\.currency) == ["USD", "JPY", "EUR", "BTC"])
        #expect(result.map(\.amount) == ["12.50", "1200", "1.00", "0.00012345"])

        let error = importError("Date,Description,Amount,CCY\n2026-03-01,A,-1,€\n", mapping)
        #expect(error?.description == "line 2: currency \"€\" in column \"CCY\" is not a currency code")
    }

    @Test func tooManyDecimalsForTheCurrencyIsAnError() {
        let error = importError("Date,Description,Amount\n2026-03-01,Sushi,1200\n2026-03-02,Ramen,-980.5\n", signedMapping(), currency: "JPY")
        #expect(error?.description == "line 3: amount \"-980.5\" in column \"Amount\" has more decimals than JPY allows (0)")
        let euro = importError("Date,Description,Amount\n2026-03-01,A,1.234\n", signedMapping())
        #expect(euro?.message.contains("more decimals than EUR allows (2)") == true)
        // Trailing zeros are not more decimals.
        #expect((try? rows("Date,Description,Amount\n2026-03-01,A,1200.00\n", currency: "JPY"))?.first?.amount == "1200")
    }

    @Test func invalidDefaultCurrency() {
        let error = importError("Date,Description,Amount\n", signedMapping(), currency: "E1")
        #expect(error?.line == nil)
        #expect(error?.message.hasPrefix("default currency") == true)
    }

    // MARK: Dates

    @Test(arguments: [
        ("DD/MM/YYYY", "05/03/2026", "2026-03-05"),
        ("MM/DD/YY", "03/05/26", "2026-03-05"),
        ("D.M.YYYY", "5.3.2026", "2026-03-05"),
        ("D.M.YYYY", "15.12.2026", "2026-12-15"),
        ("YYYY-MM-DD", "2024-02-29", "2024-02-29"),
        ("YYYYMMDD", "20260305", "2026-03-05"),
        ("dd-mm-yyyy", "05-03-2026", "2026-03-05"),
        ("YYYY-MM-DD", "2026-03-05 10:22:01", "2026-03-05"),
        ("YYYY-MM-DD", "2026-03-05T10:22:01Z", "2026-03-05"),
    ])
    func dateFormats(format: String, cell: String, expected: String) throws {
        let result = try rows("Date,Description,Amount\n\(cell),A,1\n", signedMapping(dateFormat: format))
        #expect(result.first?.date == expected)
    }

    @Test(arguments: [
        ("DD/MM/YYYY", "30/02/2026", "is not a real calendar date"),
        ("YYYY-MM-DD", "2025-02-29", "is not a real calendar date"),
        ("MM/DD/YYYY", "13/01/2026", "is not a real calendar date"),
        ("DD/MM/YYYY", "2026-03-05", "does not match the date format \"DD/MM/YYYY\""),
        ("DD/MM/YYYY", "5/3/2026", "does not match"),
        ("YYYY-MM-DD", "2026-03-05x", "does not match"),
        ("MM/DD/YY", "03/05/2026", "does not match"),
    ])
    func invalidDates(format: String, cell: String, message: String) {
        let error = importError("Date,Description,Amount\n\(cell),A,1\n", signedMapping(dateFormat: format))
        #expect(error?.line == 2, "\(cell)")
        #expect(error?.message.contains(message) == true, "\(cell): \(String(describing: error))")
        #expect(error?.message.contains("column \"Date\"") == true)
    }

    // MARK: Columns and layout

    @Test func descriptionColumnsAreJoinedAndWhitespaceCollapsed() throws {
        let mapping = BankCSVMapping(date: .index(1), amounts: .signed(.index(4)), description: [.name("payee "), .name("MEMO")])
        let result = try rows("Date, Payee ,Memo,Amount\n2026-03-01,\"  LIDL   Berlin \",\"card\n1234\",-5\n2026-03-02,,only memo,-1\n", mapping)
        #expect(result.map(\.description) == ["LIDL Berlin card 1234", "only memo"])
    }

    @Test func unicodeWhitespaceIsTrimmedAndCollapsed() throws {
        let rules = [BankCSVRule(match: .contains("bäckerei müller"), category: "Food:Bakery")]
        let result = try rows("Date,Description,Amount\n2026-03-01,\"\u{00A0} BÄCKEREI\u{00A0}\u{3000}Müller\u{202F}\",\u{00A0}-2.40\u{00A0}\n", signedMapping(rules: rules))
        #expect(result.first?.description == "BÄCKEREI Müller")
        #expect(result.first?.categoryPath == "Food:Bakery")
        #expect(result.first?.amount == "2.40")
    }

    @Test func noHeaderWithColumnNumbersAndPreamble() throws {
        let mapping = BankCSVMapping(delimiter: .semicolon, header: false, skipLines: 2, date: .index(1), amounts: .signed(.index(3)), description: [.index(2)], dateFormat: "DD.MM.YYYY", decimalSeparator: ",")
        let result = try rows("Konto;123\nZeitraum;März\n01.03.2026;Miete;-800,00\n;;;\n02.03.2026;Gehalt;3000\n", mapping)
        #expect(result.map(\.line) == [3, 5])
        #expect(result.map(\.amount) == ["800.00", "3000.00"])
    }

    @Test func missingAndDuplicateHeaderColumns() {
        let missing = importError("Datum,Description,Amount\n", signedMapping())
        #expect(missing?.line == 1)
        #expect(missing?.message.contains("date column \"Date\" is not in the header") == true)

        let duplicate = importError("Date,Description,Amount,amount\n", signedMapping())
        #expect(duplicate?.message.contains("appears 2 times") == true)

        let beyond = importError("Date,Description,Amount\n", BankCSVMapping(date: .index(1), amounts: .signed(.index(9)), description: [.index(2)]))
        #expect(beyond?.message.contains("beyond the header") == true)

        let empty = importError("", signedMapping())
        #expect(empty?.message.contains("no header") == true)
    }

    @Test func shortRowIsAnErrorNamingTheField() {
        let error = importError("Date,Description,Amount\n2026-03-01,A\n", signedMapping())
        #expect(error?.line == 2)
        #expect(error?.message.contains("delimiter") == true)
    }

    @Test func blankRowsAreSkippedAndHeaderOnlyFileIsEmpty() throws {
        #expect(try rows("Date,Description,Amount\n,,\n\n  , ,\n").isEmpty)
        #expect(try rows("Date,Description,Amount\n").isEmpty)
    }

    @Test func invalidMappingFailsBeforeAnyRow() {
        var mapping = signedMapping(decimal: ",", thousands: ",")
        #expect(importError("Date,Description,Amount\n", mapping)?.message.contains("both") == true)
        mapping = signedMapping(dateFormat: "DD/MM")
        #expect(importError("Date,Description,Amount\n", mapping)?.line == nil)
    }

    // MARK: Fingerprints

    @Test func fingerprintsAreStableAndDistinguishDuplicatesWithinAFile() throws {
        let text = "Date,Description,Amount\n"
            + "2026-03-01,Coffee,-3.50\n"
            + "2026-03-01,Coffee,-3.50\n"
            + "2026-03-01,Coffee,-3.60\n"
            + "2026-03-02,Coffee,-3.50\n"
        let first = try rows(text)
        let second = try rows(text)
        #expect(first.map(\.importKey) == second.map(\.importKey))
        #expect(Set(first.map(\.importKey)).count == 4)
        #expect(first[0].importKey.hasSuffix("#1"))
        #expect(first[1].importKey.hasSuffix("#2"))
        #expect(first[0].importKey.dropLast(2) == first[1].importKey.dropLast(2))
        #expect(first[2].importKey.hasSuffix("#1"))
        #expect(first[0].importKey.count == 18)

        // The same rows exported differently (padding, case, "3.5" for "3.50", a preamble,
        // more rows around them) keep their keys.
        var reexportMapping = signedMapping(decimal: ",")
        reexportMapping.skipLines = 2
        reexportMapping.delimiter = .semicolon
        let reexport = try rows("Statement\n\nDate;Description;Amount\n2026-02-28;Tea;-2\n2026-03-01;  COFFEE ;-3,5\n2026-03-01;coffee;-3,50\n", reexportMapping)
        #expect(Array(reexport.dropFirst().map(\.importKey)) == Array(first.prefix(2).map(\.importKey)))
    }

    @Test func fingerprintDependsOnKindAndCurrency() throws {
        let expense = try rows("Date,Description,Amount\n2026-03-01,X,-1\n")
        let income = try rows("Date,Description,Amount\n2026-03-01,X,1\n")
        let dollars = try rows("Date,Description,Amount\n2026-03-01,X,-1\n", currency: "USD")
        #expect(Set([expense[0].importKey, income[0].importKey, dollars[0].importKey]).count == 3)
    }

    // MARK: Scale

    @Test func largeFileErrorNamesTheRightLine() {
        var text = "Date,Description,Amount\n"
        for index in 1...10_000 {
            let line = index + 1
            let day = (index % 28) + 1
            let amount = line == 5001 ? "\"12,3x\"" : "-\(index % 500).\(index % 10)5"
            let description = index % 7 == 0 ? "\"Multi, \"\"quoted\"\" shop\"" : "Shop \(index)"
            text += "2026-02-\(day < 10 ? "0" : "")\(day),\(description),\(amount)\n"
        }
        let error = importError(text, signedMapping())
        #expect(error?.line == 5001)
        #expect(error?.description.hasPrefix("line 5001: amount \"12,3x\" in column \"Amount\" is not a number") == true)
    }

    @Test func largeFileParsesEveryRow() throws {
        var text = "Date,Description,Amount\n"
        for index in 1...10_000 {
            text += "2026-02-\(String(format: "%02d", (index % 28) + 1)),\"Shop\n#\(index % 50)\",-\(index).99\n"
        }
        let result = try rows(text)
        #expect(result.count == 10_000)
        #expect(result.last?.line == 20_000)
        #expect(result.last?.amount == "10000.99")
    }
}
