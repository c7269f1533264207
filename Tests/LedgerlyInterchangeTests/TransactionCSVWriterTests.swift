import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import Testing

@Suite struct TransactionCSVWriterTests {
    typealias F = ExportFixtures

    let writer = TransactionCSVWriter(wallets: F.wallets, categories: F.categories)

    @Test func headerNamesTheColumns() {
        #expect(writer.header() == "id,date,kind,wallet,amount,currency,wallet_amount,wallet_currency,base_amount,base_currency,category,notes,tags,transfer_id,splits\r\n")
    }

    @Test func plainRow() {
        let row = writer.row(for: F.transaction(1, .expense, wallet: 2, "84.30", "EUR", walletAmount: "91.25", base: "84.31", category: 11,
                                                notes: "Books", tags: ["work", "reading"]))
        #expect(row == "1,2024-03-01,expense,US Card,84.30,EUR,91.25,USD,84.31,EUR,Food/Groceries,Books,work;reading,,\r\n")
    }

    @Test func quotesFieldsThatNeedIt() {
        let row = writer.row(for: F.transaction(2, .income, wallet: 4, "1.00", "EUR", base: nil, category: 14,
                                                notes: "Said \"thanks\", then\r\nleft", tags: []))
        #expect(row == "2,2024-03-01,income,Savings: Joint  Account,1.00,EUR,1.00,EUR,,EUR,Home: Garden,\"Said \"\"thanks\"\", then\r\nleft\",,,\r\n")
        #expect(CSVField.quoted("plain; text") == "plain; text")
        #expect(CSVField.quoted("a\nb") == "\"a\nb\"")
        #expect(CSVField.quoted("\"") == "\"\"\"\"")
    }

    @Test func splitsAndTransfers() {
        let splits = [SplitPart(amount: "33.33", categoryId: 11), SplitPart(amount: "66.67", categoryId: 16)]
        let split = writer.row(for: F.transaction(3, .expense, wallet: 2, "100.00", "USD", base: "92.06", splits: splits))
        #expect(split == "3,2024-03-01,expense,US Card,100.00,USD,100.00,USD,92.06,EUR,,,,,Food/Groceries=33.33;Rent/Mortgage=66.67\r\n")
        let legs = F.transfer(20, from: 1, "100.00", "EUR", to: 3, "16250", "JPY", base: "100.00")
        #expect(writer.row(for: legs.incoming) == "21,2024-03-05,income,Tokyo Cash,16250,JPY,16250,JPY,100.00,EUR,,,,20,\r\n")
    }

    @Test func readsBackFieldForField() {
        let record = F.transaction(4, .expense, wallet: 1, "3.20", "EUR", base: "3.20", category: 17,
                                   notes: "a,b \"c\"\nd", tags: ["x y", "z"])
        let rows = ExportTools.parseCSV(writer.header() + writer.row(for: record))
        #expect(rows.count == 2)
        #expect(rows[0] == TransactionCSVWriter.columns)
        #expect(rows[1] == ["4", "2024-03-01", "expense", "Checking", "3.20", "EUR", "3.20", "EUR", "3.20", "EUR", "Salary/Interest", "a,b \"c\"\nd", "x y;z", "", ""])
    }

    @Test func unknownWalletAndCategoryFallBackToIds() {
        let row = writer.row(for: F.transaction(5, .expense, wallet: 9, "1.00", "EUR", base: "1.00", category: 99))
        #expect(row == "5,2024-03-01,expense,#9,1.00,EUR,1.00,,1.00,EUR,#99,,,,\r\n")
    }
}
