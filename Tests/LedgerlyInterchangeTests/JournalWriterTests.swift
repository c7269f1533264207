import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import Testing

/// Entries for each kind of record, written out in full (alignment padding squeezed).
@Suite struct JournalWriterTests {
    typealias F = ExportFixtures

    func entry(_ transaction: TransactionRecord) -> String {
        var writer = F.journalWriter()
        return F.squeezed(writer.entry(for: transaction))
    }

    @Test func plainExpenseInTheBaseCurrency() {
        let text = entry(F.transaction(1, .expense, wallet: 1, "12.50", "EUR", base: "12.50", category: 11,
                                       notes: "Weekly shop", tags: ["food", "weekly"]))
        #expect(text == """
            tag food
            tag weekly

            2024-03-01 (1) Weekly shop
                ; ledgerly-id:1
                ; food:, weekly:
                expenses:Food:Groceries  12.50 EUR
                assets:Checking  -12.50 EUR


            """)
    }

    @Test func foreignCurrencySpendFromABaseWallet() {
        let text = entry(F.transaction(2, .expense, wallet: 1, "20.00", "USD", walletAmount: "18.43", base: "18.43", category: 12, notes: "Diner in NYC"))
        #expect(text == """
            2024-03-01 (2) Diner in NYC
                ; ledgerly-id:2
                expenses:Food:Restaurants  20.00 USD @@ 18.43 EUR
                assets:Checking  -18.43 EUR


            """)
    }

    @Test func yenWalletSpendingYen() {
        let text = entry(F.transaction(3, .expense, wallet: 3, "16250", "JPY", base: "99.87", category: 15, notes: "Rail pass"))
        #expect(text == """
            2024-03-01 (3) Rail pass
                ; ledgerly-id:3
                expenses:Transport  16250 JPY @@ 99.87 EUR
                assets:Tokyo Cash  -16250 JPY @@ 99.87 EUR


            """)
    }

    /// The base amount is the wallet amount converted (84.31), not the 84.30 typed: the category is
    /// posted in the wallet's currency at that cost, with the typed amount as a comment.
    @Test func baseCurrencySpendFromAForeignWallet() {
        let text = entry(F.transaction(4, .expense, wallet: 2, "84.30", "EUR", walletAmount: "91.25", base: "84.31", category: 10, notes: "Books"))
        #expect(text == """
            2024-03-01 (4) Books
                ; ledgerly-id:4
                expenses:Food  91.25 USD @@ 84.31 EUR  ; 84.30 EUR
                assets:US Card  -91.25 USD @@ 84.31 EUR


            """)
    }

    /// 92.06 EUR over 33.33/33.33/33.34: floors 30.68 each leave one cent, which goes to the largest
    /// remainder — the first part (tied with the second, earlier wins), not the last.
    @Test func splitSharesFollowTheLargestRemainderRule() {
        let splits = [SplitPart(amount: "33.33", categoryId: 11), SplitPart(amount: "33.33", categoryId: 12), SplitPart(amount: "33.34", categoryId: 15)]
        let text = entry(F.transaction(5, .expense, wallet: 2, "100.00", "USD", base: "92.06", splits: splits, notes: "Road trip"))
        #expect(text == """
            2024-03-01 (5) Road trip
                ; ledgerly-id:5
                expenses:Food:Groceries  33.33 USD @@ 30.69 EUR
                expenses:Food:Restaurants  33.33 USD @@ 30.68 EUR
                expenses:Transport  33.34 USD @@ 30.69 EUR
                assets:US Card  -100.00 USD @@ 92.06 EUR


            """)
    }

    @Test func splitInTheBaseCurrencyFromAForeignWalletSharesTheWalletAmount() {
        let splits = [SplitPart(amount: "10.00", categoryId: 11), SplitPart(amount: "20.00", categoryId: 12)]
        let text = entry(F.transaction(6, .expense, wallet: 2, "30.00", "EUR", walletAmount: "32.51", base: "30.01", splits: splits))
        // 3251 over 1000/2000 of 3000: 1083.67 → 1083, 2167.33 → 2167, the left cent to the first.
        #expect(text == """
            2024-03-01 (6) (no notes)
                ; ledgerly-id:6
                expenses:Food:Groceries  10.84 USD @@ 10.00 EUR  ; 10.00 EUR
                expenses:Food:Restaurants  21.67 USD @@ 20.01 EUR  ; 20.00 EUR
                assets:US Card  -32.51 USD @@ 30.01 EUR


            """)
    }

    @Test func refundLandsNegativeOnTheExpenseAccount() {
        let text = entry(F.transaction(7, .income, wallet: 1, "5.00", "EUR", base: "5.00", category: 11, notes: "Returned milk"))
        #expect(text == """
            2024-03-01 (7) Returned milk
                ; ledgerly-id:7
                expenses:Food:Groceries  -5.00 EUR
                assets:Checking  5.00 EUR


            """)
    }

    @Test func uncategorisedIncomeAndExpense() {
        let income = entry(F.transaction(8, .income, wallet: 1, "250.00", "EUR", base: "250.00", notes: "Gift"))
        #expect(income == """
            2024-03-01 (8) Gift
                ; ledgerly-id:8
                income:uncategorized  -250.00 EUR
                assets:Checking  250.00 EUR


            """)
        let expense = entry(F.transaction(9, .expense, wallet: 1, "1.00", "EUR", base: "1.00"))
        #expect(expense.contains("    expenses:uncategorized  1.00 EUR\n"))
    }

    @Test func foreignCurrencyWithoutABaseAmountIsPricedInTheWalletCurrency() {
        let text = entry(F.transaction(10, .expense, wallet: 2, "1500", "JPY", walletAmount: "10.12", base: nil, category: 12))
        #expect(text.contains("    expenses:Food:Restaurants  1500 JPY @@ 10.12 USD\n    assets:US Card  -10.12 USD\n"))
        let plain = entry(F.transaction(11, .expense, wallet: 2, "3.00", "USD", base: nil, category: 12))
        #expect(plain.contains("    expenses:Food:Restaurants  3.00 USD\n    assets:US Card  -3.00 USD\n"))
    }

    static let eurToYen = F.transfer(20, from: 1, "100.00", "EUR", to: 3, "16250", "JPY", base: "100.00", notes: "To Tokyo")
    static let eurToYenEntry = """
        2024-03-05 (20) To Tokyo
            ; ledgerly-id:20, ledgerly-counterpart-id:21
            assets:Tokyo Cash  16250 JPY @@ 100.00 EUR
            assets:Checking  -100.00 EUR


        """

    @Test func transferIsOneEntryWhicheverLegComesFirst() {
        var writer = F.journalWriter()
        #expect(writer.entry(for: Self.eurToYen.outgoing) == "")
        #expect(writer.pendingTransferLegs == 1)
        #expect(F.squeezed(writer.entry(for: Self.eurToYen.incoming)) == Self.eurToYenEntry)
        #expect(writer.pendingTransferLegs == 0)

        var reversed = F.journalWriter()
        #expect(reversed.entry(for: Self.eurToYen.incoming) == "")
        #expect(F.squeezed(reversed.entry(for: Self.eurToYen.outgoing)) == Self.eurToYenEntry)
        #expect(reversed.finish() == "")
    }

    @Test func transferLegsNeedNotBeAdjacent() {
        var writer = F.journalWriter()
        #expect(writer.entry(for: Self.eurToYen.incoming) == "")
        let between = writer.entry(for: F.transaction(30, .expense, wallet: 1, "1.00", "EUR", base: "1.00"))
        #expect(between.hasPrefix("2024-03-01 (30)"))
        #expect(F.squeezed(writer.entry(for: Self.eurToYen.outgoing)) == Self.eurToYenEntry)
    }

    @Test func transferWithoutBaseAmountsIsPricedAtWhatLeft() {
        let legs = F.transfer(40, from: 2, "50.00", "USD", to: 3, "7400", "JPY", base: nil)
        var writer = F.journalWriter()
        _ = writer.entry(for: legs.outgoing)
        #expect(F.squeezed(writer.entry(for: legs.incoming)) == """
            2024-03-05 (40) (no notes)
                ; ledgerly-id:40, ledgerly-counterpart-id:41
                assets:Tokyo Cash  7400 JPY @@ 50.00 USD
                assets:US Card  -50.00 USD


            """)
    }

    @Test func transferBetweenTwoForeignWalletsIsAtCostInTheBase() {
        let legs = F.transfer(42, from: 2, "50.00", "USD", to: 3, "7400", "JPY", base: "46.10")
        var writer = F.journalWriter()
        _ = writer.entry(for: legs.incoming)
        let text = F.squeezed(writer.entry(for: legs.outgoing))
        #expect(text.contains("    assets:Tokyo Cash  7400 JPY @@ 46.10 EUR\n    assets:US Card  -50.00 USD @@ 46.10 EUR\n\n"))
    }

    /// Legs converted at different moments (the backfill) keep their own base amounts; the
    /// difference goes to its own account so the entry still balances.
    @Test func transferLegsWithDifferentBaseAmountsStillBalance() {
        var legs = F.transfer(44, from: 2, "50.00", "USD", to: 3, "7400", "JPY", base: "46.10")
        legs.incoming.baseAmount = "46.12"
        legs.incoming.date = "2024-03-07"
        var writer = F.journalWriter()
        _ = writer.entry(for: legs.outgoing)
        let text = F.squeezed(writer.entry(for: legs.incoming))
        // Dated when the money arrived; the leg that left keeps its day as a posting date.
        #expect(text.contains("""
            2024-03-07 (44) (no notes)
                ; ledgerly-id:44, ledgerly-counterpart-id:45
                assets:Tokyo Cash  7400 JPY @@ 46.12 EUR
                assets:US Card  -50.00 USD @@ 46.10 EUR  ; [2024-03-05]
                equity:conversion differences  -0.02 EUR

            """))
    }

    @Test func aLegWithoutItsCounterpartIsWrittenByFinish() {
        var writer = F.journalWriter()
        #expect(writer.entry(for: Self.eurToYen.outgoing) == "")
        let text = F.squeezed(writer.finish())
        #expect(text.contains("    assets:Checking  -100.00 EUR\n    equity:unmatched transfers  100.00 EUR\n"))
        #expect(writer.pendingTransferLegs == 0)
        #expect(writer.finish() == "")
    }

    @Test func notesBecomeADescriptionAndCommentLines() {
        let text = entry(F.transaction(50, .expense, wallet: 1, "1.00", "EUR", base: "1.00",
                                       notes: "  Dinner  with\tAnn;  Bob \nsecond line\n\nReminder: pay [1] [x]\u{0}  \n\n", tags: ["trip 2024", "a:b", "food", "food", " "]))
        // The tags a line shows are declared before the entry (ledger --pedantic; hledger reads
        // `Reminder:` as one); the first line is the description, the others comments after a
        // mark, so ledger reads no metadata key `Reminder` from them.
        #expect(text.hasPrefix("""
            tag trip-2024
            tag a-b
            tag food
            tag Reminder

            2024-03-01 (50) Dinner with Ann, Bob
                ; ledgerly-id:50
                ; trip-2024:, a-b:, food:
                ; .. second line
                ; ..
                ; .. Reminder: pay [ 1] [x]

            """), Comment(rawValue: text))
        let blankFirstLine = entry(F.transaction(51, .expense, wallet: 1, "1.00", "EUR", base: "1.00", notes: "\n  \nSecond"))
        #expect(blankFirstLine.hasPrefix("2024-03-01 (51) Second\n"))
        let empty = entry(F.transaction(52, .expense, wallet: 1, "1.00", "EUR", base: "1.00", notes: " \n "))
        #expect(empty.hasPrefix("2024-03-01 (52) (no notes)\n"))
    }

    @Test func accountNamesAreSanitised() {
        let writer = F.journalWriter()
        #expect(writer.categoryAccount(14, kind: .expense) == "expenses:Home- Garden")
        #expect(writer.categoryAccount(16, kind: .expense) == "expenses:Rent/Mortgage")
        #expect(writer.categoryAccount(17, kind: .income) == "income:Salary:Interest")
        #expect(writer.categoryAccount(nil, kind: .income) == "income:uncategorized")
        #expect(writer.categoryAccount(nil, kind: .expense) == "expenses:uncategorized")
        #expect(writer.categoryAccount(99, kind: .expense) == "expenses:category 99")
        #expect(writer.walletAccount(4) == "assets:Savings- Joint Account")
        #expect(writer.walletAccount(98) == "assets:wallet 98")
    }

    @Test func clashingNamesGetTheirIdAppended() {
        let writer = JournalWriter(
            baseCurrency: "EUR",
            wallets: [F.wallet(1, "Cash", "EUR"), F.wallet(2, "Cash", "USD"), F.wallet(3, "  ", "EUR"), F.wallet(4, "a:b", "EUR"), F.wallet(5, "a-b", "EUR")],
            categories: [F.category(1, "Food", .expense), F.category(2, "Food", .expense), F.category(3, "Snacks", .expense, parent: 2, path: "Food/Snacks"),
                         F.category(4, "uncategorized", .expense), F.category(5, "Food", .income)])
        #expect(writer.walletAccount(1) == "assets:Cash")
        #expect(writer.walletAccount(2) == "assets:Cash #2")
        #expect(writer.walletAccount(3) == "assets:unnamed")
        #expect(writer.walletAccount(4) == "assets:a-b")
        #expect(writer.walletAccount(5) == "assets:a-b #5")
        #expect(writer.categoryAccount(1, kind: .expense) == "expenses:Food")
        #expect(writer.categoryAccount(2, kind: .expense) == "expenses:Food #2")
        #expect(writer.categoryAccount(3, kind: .expense) == "expenses:Food #2:Snacks")
        #expect(writer.categoryAccount(4, kind: .expense) == "expenses:uncategorized #4")
        #expect(writer.categoryAccount(5, kind: .income) == "income:Food")
    }

    @Test func headerDeclaresEveryAccountAndCommodity() {
        var writer = F.journalWriter()
        let header = writer.header()
        for line in ["commodity EUR", "commodity JPY", "commodity USD", "account assets:Checking", "account assets:Tokyo Cash",
                     "account expenses:Food:Groceries", "account income:Salary:Interest", "account expenses:Home- Garden",
                     "account expenses:uncategorized", "account income:uncategorized", "account equity:opening balances"] {
            #expect(header.contains("\n" + line + "\n"), "missing \(line)")
        }
    }

    @Test func openingBalancesForNonZeroWallets() {
        var writer = F.journalWriter()
        let text = F.squeezed(writer.openingBalances(date: "2024-01-01"))
        #expect(text == """
            2024-01-01 Opening balance: Checking
                ; ledgerly-wallet-id:1
                assets:Checking  1000.00 EUR
                equity:opening balances  -1000.00 EUR

            2024-01-01 Opening balance: US Card
                ; ledgerly-wallet-id:2
                assets:US Card  -25.50 USD
                equity:opening balances  25.50 USD

            2024-01-01 Opening balance: Tokyo Cash
                ; ledgerly-wallet-id:3
                assets:Tokyo Cash  50000 JPY
                equity:opening balances  -50000 JPY


            """)
    }

    @Test func oddCommoditiesAreQuotedAndDeclaredOnFirstUse() {
        var writer = JournalWriter(baseCurrency: "EUR", wallets: [F.wallet(1, "Crypto", "EUR")], categories: [])
        let text = F.squeezed(writer.entry(for: F.transaction(1, .expense, wallet: 1, "1.5", "1INCH", walletAmount: "0.75", base: "0.75")))
        #expect(text.hasPrefix("commodity \"1INCH\"\n\n2024-03-01 (1)"))
        #expect(text.contains("    expenses:uncategorized  1.50 \"1INCH\" @@ 0.75 EUR\n"))
        let again = writer.entry(for: F.transaction(2, .expense, wallet: 1, "2", "1INCH", walletAmount: "1.00", base: "1.00"))
        #expect(again.hasPrefix("2024-03-01 (2)"))
    }

    @Test func unreadableRecordsBecomeCommentsNotBrokenEntries() {
        var writer = F.journalWriter()
        #expect(writer.entry(for: F.transaction(60, .expense, wallet: 77, "1.00", "EUR")) == "; ledgerly: transaction 60 left out: wallet 77 is not among the exported wallets\n\n")
        #expect(writer.entry(for: F.transaction(61, .expense, wallet: 1, "1.005", "EUR")).hasPrefix("; ledgerly: transaction 61 left out: amount: 1.005 has more decimals"))
        #expect(writer.entry(for: F.transaction(62, .expense, wallet: 1, "1.00", "EUR", date: "2024-02-30")).hasPrefix("; ledgerly: transaction 62 left out:"))
        #expect(writer.skippedTransactionIds == [60, 61, 62])
    }
}
