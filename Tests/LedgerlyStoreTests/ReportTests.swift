import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Reports, bulk import and the totals they read, against a real database.
@Suite struct ReportTests {
    struct Ledger {
        let store: Store
        let checking: WalletRecord
        let yen: WalletRecord
        let savings: WalletRecord
        let food: CategoryRecord
        let groceries: CategoryRecord
        let rent: CategoryRecord
        let salary: CategoryRecord

        init() async throws {
            store = try await Store()
            _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "160", asOf: "2026-01-01T00:00:00Z"))
            checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR", startingBalance: "1000"))
            yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
            savings = try await store.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
            food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
            groceries = try await store.call(CategoryCreateRequest(name: "Groceries", parentId: food.id))
            rent = try await store.call(CategoryCreateRequest(name: "Rent", kind: .expense))
            salary = try await store.call(CategoryCreateRequest(name: "Salary", kind: .income))
        }

        func expense(_ amount: String, _ category: CategoryRecord?, wallet: WalletRecord? = nil, currency: String? = nil, on date: String = "2026-03-10", kind: TransactionKind = .expense, notes: String? = nil) -> TransactionCreateRequest {
            TransactionCreateRequest(kind: kind, walletId: (wallet ?? checking).id, amount: amount, currency: currency, categoryId: category?.id, notes: notes, date: date)
        }

        /// The kept totals (`ledger_totals`, `category_totals`, `payee_totals`,
        /// `split_subtree_counts`, one row list each), as kept and as computed from scratch.
        func totals() throws -> (kept: [[Row]], rebuilt: [[Row]]) {
            let queries = [
                "SELECT * FROM ledger_totals ORDER BY month, wallet_id, category_id, kind, transfer, currency",
                "SELECT * FROM category_totals ORDER BY month, category_id, kind, currency",
                "SELECT * FROM payee_totals ORDER BY month, kind, notes",
                "SELECT * FROM split_subtree_counts ORDER BY month, category_id",
            ]
            let kept = try store.database.pool.read { db in try queries.map { try Row.fetchAll(db, sql: $0) } }
            let rebuilt = try store.database.pool.write { db -> [[Row]] in
                var rows: [[Row]] = []
                try db.inSavepoint {
                    try LedgerTotals.rebuild(db)
                    rows = try queries.map { try Row.fetchAll(db, sql: $0) }
                    return .rollback
                }
                return rows
            }
            return (kept, rebuilt)
        }
    }

    @Test func categoriesAndCashFlowCountSplitsRefundsAndForeignSpendingButNotTransfers() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        _ = try await store.call(ledger.expense("60", ledger.groceries))
        _ = try await store.call(ledger.expense("15", ledger.groceries, kind: .income))  // a refund
        _ = try await store.call(ledger.expense("900", ledger.rent, on: "2026-04-01"))
        _ = try await store.call(ledger.expense("3200", nil, kind: .income, notes: "ACME").with(category: ledger.salary.id))
        _ = try await store.call(ledger.expense("8000", ledger.groceries, currency: "JPY"))  // 50.00 EUR at 160
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ledger.checking.id, amount: "100", date: "2026-03-12",
                                                          splits: [SplitPart(amount: "33.33", categoryId: ledger.groceries.id), SplitPart(amount: "66.67", categoryId: ledger.rent.id)]))
        _ = try await store.call(TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.savings.id, amount: "500", date: "2026-03-13"))
        _ = try await store.call(TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.yen.id, amount: "100", toAmount: "16000", date: "2026-03-14"))

        let report = try await store.call(CategoryReportRequest(byCurrency: true))
        #expect(report.months == ["2026-03", "2026-04"])
        let rows = Dictionary(uniqueKeysWithValues: report.categories.map { ($0.path, $0) })
        #expect(report.categories.map(\.path) == ["Food", "Food/Groceries", "Rent", "Salary"])
        #expect(rows["Food/Groceries"]?.months == ["128.33", "0.00"])  // 60 − 15 + 50 + 33.33
        #expect(rows["Food"]?.total == "128.33")
        #expect(rows["Rent"]?.months == ["66.67", "900.00"])
        #expect(rows["Salary"]?.total == "3200.00")
        #expect(rows["Food/Groceries"]?.byCurrency == [CurrencyAmount(currency: "EUR", amount: "78.33"), CurrencyAmount(currency: "JPY", amount: "8000")])
        #expect(report.uncounted == 0)

        let flow = try await store.call(CashFlowReportRequest())
        #expect(flow.months.map(\.expenses) == ["195.00", "900.00"])
        #expect(flow.months.map(\.income) == ["3200.00", "0.00"])
        #expect(flow.total.net == "2105.00")
        #expect(flow.total.savingsRate == "65.8")  // 2105 / 3200
        #expect(flow.months[1].savingsRate == nil)

        let march = try await store.call(CashFlowReportRequest(from: "2026-03", to: "2026-03"))
        #expect(march.months.map(\.month) == ["2026-03"])
        #expect(try await store.failure(CashFlowReportRequest(from: "2026-13")).field == "body.from")
        #expect(try await store.failure(CategoryReportRequest(from: "2026-05", to: "2026-04")).code == .validationFailed)

        let payees = try await store.call(PayeeReportRequest(kind: .income))
        #expect(payees.payees == [PayeeTotal(payee: "ACME", count: 1, total: "3200.00", uncounted: 0)])

        let balance = try await store.call(BalanceReportRequest())
        let yen = try #require(balance.wallets.first { $0.name == "Yen" })
        #expect(yen.balance == "16000")
        #expect(yen.baseValue == "100.00")
        // 1000 − 60 + 15 − 900 + 3200 − 50 − 100 − 500 − 100 = 2505, + 500 savings + 100.00 yen.
        #expect(balance.total == "3105.00")
    }

    @Test func keptTotalsEqualARecomputationAfterEveryKindOfChange() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        var random = SystemRandomNumberGenerator()
        var ids: [Int64] = []
        for step in 0..<120 {
            let date = "2026-0\(1 + step % 6)-1\(step % 10)"
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                ids.append(try await store.call(ledger.expense("\(Int.random(in: 1...500, using: &random)).25", [ledger.groceries, ledger.rent, ledger.food].randomElement()!, on: date,
                                                               notes: ["Bakery", "bakery", "BAKERY", "Café", nil].randomElement()!)).id)
            case 2:
                ids.append(try await store.call(ledger.expense("\(Int.random(in: 100...9000, using: &random))", ledger.groceries, currency: "JPY", on: date)).id)
            case 3:
                let reply = try await store.call(TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.yen.id, amount: "10", toAmount: "1600", date: date))
                ids.append(reply.outgoing.id)
            case 4 where !ids.isEmpty:
                let id = ids.randomElement()!
                if let record = try? await store.call(TransactionGetRequest(id: id)) {
                    let update = record.transfer == nil
                        ? TransactionUpdateRequest(id: id, amount: record.currency == "JPY" ? "777" : "7.77", categoryId: ledger.rent.id, notes: ["Landlord", "Bakery"].randomElement()!,
                                                   date: "2026-02-02", splits: [])
                        : TransactionUpdateRequest(id: id, date: "2026-02-03")
                    _ = try await store.call(update)
                }
            case 5 where !ids.isEmpty:
                let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
                _ = try? await store.call(TransactionDeleteRequest(id: id))
            default:
                _ = try await store.call(TransactionImportRequest(importId: "import-\(step)", items: [
                    TransactionImportItem(line: 2, transaction: ledger.expense("12.00", ledger.food, on: date)),
                    TransactionImportItem(line: 3, transfer: TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.savings.id, amount: "5", date: date)),
                    // Parts in two categories of Food's subtree: one split transaction for Food.
                    TransactionImportItem(line: 4, transaction: TransactionCreateRequest(kind: .expense, walletId: ledger.checking.id, amount: "9", date: date,
                        splits: [SplitPart(amount: "5", categoryId: ledger.groceries.id), SplitPart(amount: "4", categoryId: ledger.food.id)])),
                ]))
                if step % 3 == 0 { _ = try await store.call(TransactionImportUndoRequest(importId: "import-\(step)")) }
            }
        }
        // A USD wallet waits for a rate, then the rate arrives and fills base amounts in.
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        _ = try await store.call(ledger.expense("20", ledger.food, wallet: dollars))
        #expect(try await store.call(CategoryReportRequest()).uncounted == 1)
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.25", asOf: "2026-01-01T00:00:00Z"))
        #expect(try await store.call(CategoryReportRequest()).uncounted == 0)

        let (kept, rebuilt) = try ledger.totals()
        #expect(kept.allSatisfy { !$0.isEmpty })
        #expect(kept == rebuilt)
    }

    /// `report.payees` reads whole months from `payee_totals` and the days of partial months
    /// from the transactions: for any day range it must equal a count over every transaction.
    @Test func payeeTotalsForAnyDayRangeEqualACountOverTheTransactions() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        var random = SystemRandomNumberGenerator()
        let payees = ["Bakery", "bakery", "Landlord", "Café", "café", "ACME"]
        var items: [TransactionImportItem] = []
        for index in 0..<400 {
            let date = "2026-0\(Int.random(in: 1...4, using: &random))-\(String(format: "%02d", Int.random(in: 1...28, using: &random)))"
            let kind: TransactionKind = index.isMultiple(of: 5) ? .income : .expense
            let currency = index.isMultiple(of: 7) ? "JPY" : nil
            items.append(TransactionImportItem(transaction: ledger.expense(currency == nil ? "\(Int.random(in: 1...90, using: &random)).50" : "1200", ledger.groceries,
                                                                           currency: currency, on: date, kind: kind, notes: payees.randomElement()!)))
        }
        // Month ends, February's last day, a transfer with a note (never a payee).
        items.append(TransactionImportItem(transaction: ledger.expense("5", ledger.rent, on: "2026-02-28", notes: "Landlord")))
        items.append(TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.savings.id, amount: "9", date: "2026-03-31", notes: "Landlord")))
        _ = try await store.call(TransactionImportRequest(importId: "payees", items: items))
        // A USD transaction without a rate is uncounted.
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        _ = try await store.call(ledger.expense("20", nil, wallet: dollars, on: "2026-03-15", notes: "ACME"))

        let ranges: [(String?, String?)] = [(nil, nil), ("2026-02-01", "2026-03-31"), ("2026-02-02", "2026-03-30"), ("2026-02-28", "2026-03-01"),
                                            ("2026-03-05", "2026-03-20"), ("2026-01-15", nil), (nil, "2026-02-28"), ("2026-04-01", "2026-01-01"),
                                            ("2026-03-01", "2026-03-31"), ("2026-02-10", "2026-04-30")]
        for (from, to) in ranges {
            for kind in [TransactionKind.expense, .income] {
                let report = try await store.call(PayeeReportRequest(from: from, to: to, kind: kind, limit: 1_000))
                let expected = try store.database.pool.read { db in
                    try Row.fetchAll(db, sql: """
                        SELECT min(notes) AS payee, count(*) AS n, coalesce(sum(base_amount_minor), 0) AS total, sum(base_amount_minor IS NULL) AS uncounted
                        FROM transactions WHERE kind = ? AND counterparty_tx_id IS NULL AND trade_transfer = 0 AND notes IS NOT NULL AND date BETWEEN ? AND ?
                        GROUP BY notes COLLATE NOCASE ORDER BY abs(total) DESC, payee
                        """, arguments: [kind.rawValue, from ?? "0000-01-01", to ?? "9999-12-31"])
                }
                #expect(report.payees.map(\.payee) == expected.map { $0["payee"] as String }, "\(from ?? "…")–\(to ?? "…") \(kind)")
                #expect(report.payees.map(\.count) == expected.map { $0["n"] as Int }, "\(from ?? "…")–\(to ?? "…") \(kind)")
                #expect(report.payees.map(\.total) == expected.map { InputRules.format(Int64(($0["total"] as Int64).magnitude), "EUR") }, "\(from ?? "…")–\(to ?? "…") \(kind)")
                #expect(report.payees.map(\.uncounted) == expected.map { $0["uncounted"] as Int }, "\(from ?? "…")–\(to ?? "…") \(kind)")
            }
        }
        #expect(try await store.call(PayeeReportRequest(kind: .expense)).payees.contains { $0.uncounted == 1 })
    }

    /// `tx.list`'s count of a category takes whole months from the kept totals and the days at
    /// either end from the indexes (D358): for any day range, after edits, deletes and an undone
    /// import, it equals a count over the transactions.
    @Test func aCategoryCountForAnyDayRangeEqualsACountOverTheTransactions() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        // A fixed linear congruential sequence: the same ledger on every run.
        var state: UInt64 = 358
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let categories = [ledger.food, ledger.groceries, ledger.rent]
        func day() -> String { "2026-0\(1 + next() % 4)-\(String(format: "%02d", 1 + Int(next() % 28)))" }
        var items: [TransactionImportItem] = []
        for index in 0..<300 {
            let date = index.isMultiple(of: 50) ? ["2026-01-31", "2026-02-28", "2026-03-01", "2026-04-30"][index / 50 % 4] : day()
            if index.isMultiple(of: 6) {
                // Split parts in one, two or none of Food's categories (a transaction counts once).
                let second = categories[Int(next() % 3)]
                items.append(TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: ledger.checking.id, amount: "10", date: date,
                    splits: [SplitPart(amount: "6", categoryId: ledger.groceries.id), SplitPart(amount: "4", categoryId: second.id)])))
            } else if index.isMultiple(of: 11) {
                items.append(TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: ledger.checking.id, toWalletId: ledger.savings.id, amount: "2", date: date)))
            } else {
                items.append(TransactionImportItem(transaction: ledger.expense("3", categories[Int(next() % 3)], on: date)))
            }
        }
        let imported = try await store.call(TransactionImportRequest(importId: "counts", items: items))
        let undone = try await store.call(TransactionImportRequest(importId: "undone", items: Array(items.prefix(40))))
        _ = try await store.call(TransactionImportUndoRequest(importId: "undone"))
        #expect(undone.imported == 40)
        // Moved to another month, to another category, from splits to a category, and deleted.
        let first = try #require(imported.firstId)
        _ = try await store.call(TransactionUpdateRequest(id: first + 1, date: "2026-04-15"))
        _ = try await store.call(TransactionUpdateRequest(id: first + 2, categoryId: ledger.rent.id))
        _ = try await store.call(TransactionUpdateRequest(id: first, categoryId: ledger.food.id, splits: []))
        _ = try await store.call(TransactionDeleteRequest(id: first + 3))

        let ranges: [(String?, String?)] = [(nil, nil), ("2026-02-01", "2026-03-31"), ("2026-02-02", "2026-03-30"), ("2026-02-28", "2026-03-01"),
                                            ("2026-03-05", "2026-03-20"), ("2026-01-15", nil), (nil, "2026-02-28"), ("2026-04-01", "2026-01-01"),
                                            ("2026-03-01", "2026-03-31"), ("2026-01-31", "2026-04-01")]
        try await expectCountsOverTheTransactions(store, categories: categories, ranges: ranges)
        // Groceries moved to the top level and back under Food: its split parts leave Food's
        // subtree and come back (`split_subtree_counts` is rebuilt on a move).
        _ = try await store.call(CategoryUpdateRequest(id: ledger.groceries.id, makeTopLevel: true))
        try await expectCountsOverTheTransactions(store, categories: categories, ranges: ranges)
        _ = try await store.call(CategoryUpdateRequest(id: ledger.groceries.id, parentId: ledger.food.id))
        try await expectCountsOverTheTransactions(store, categories: categories, ranges: ranges)
        let (kept, rebuilt) = try ledger.totals()
        #expect(!kept[3].isEmpty)
        #expect(kept == rebuilt)
    }

    /// `tx.list`'s count for each category and day range, against a count over the transactions.
    private func expectCountsOverTheTransactions(_ store: Store, categories: [CategoryRecord], ranges: [(String?, String?)]) async throws {
        for (from, to) in ranges {
            for category in categories {
                let listed = try await store.call(TransactionListRequest(categoryId: category.id, from: from, to: to, limit: 1))
                let expected = try await store.database.pool.read { db in
                    try Int.fetchOne(db, sql: """
                        WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN subtree ON c.parent_id = subtree.id)
                        SELECT count(*) FROM transactions t WHERE date BETWEEN ? AND ?
                            AND (category_id IN subtree OR EXISTS (SELECT 1 FROM splits s WHERE s.tx_id = t.id AND s.category_id IN subtree))
                        """, arguments: [category.id, from ?? "0000-01-01", to ?? "9999-12-31"])
                }
                #expect(listed.total == expected, "\(category.name) \(from ?? "…")–\(to ?? "…")")
            }
        }
    }

    /// `tx.list` pages by (date, id) with `after`: the pages join up to the same list `offset`
    /// gives, and the count (from the category and split indexes) equals the rows.
    @Test func keysetPagesJoinUpAndTheCategoryCountIncludesSplitParts() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        var items: [TransactionImportItem] = []
        for day in 1...28 {
            let date = "2026-02-\(String(format: "%02d", day))"
            items.append(TransactionImportItem(transaction: ledger.expense("3", ledger.groceries, on: date)))
            items.append(TransactionImportItem(transaction: ledger.expense("4", ledger.rent, on: date)))
            items.append(TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: ledger.checking.id, amount: "10", date: date,
                splits: [SplitPart(amount: "6", categoryId: ledger.groceries.id), SplitPart(amount: "4", categoryId: ledger.food.id)])))
            if day % 2 == 1 { items.append(TransactionImportItem(transaction: ledger.expense("5", ledger.groceries, wallet: ledger.savings, on: date))) }
        }
        _ = try await store.call(TransactionImportRequest(importId: "pages", items: items))
        // A split transaction moved to another day: its parts' date follows.
        let moved = try #require(try await store.call(TransactionListRequest(categoryId: ledger.food.id, to: "2026-02-01")).transactions.first { !$0.splits.isEmpty })
        _ = try await store.call(TransactionUpdateRequest(id: moved.id, date: "2026-03-05"))

        let everything = try await store.call(TransactionListRequest(categoryId: ledger.food.id, limit: 10_000))
        #expect(everything.total == 70)
        #expect(everything.transactions.count == 70)
        #expect(everything.next == nil)
        var paged: [Int64] = []
        var after: TransactionListCursor?
        repeat {
            let page = try await store.call(TransactionListRequest(categoryId: ledger.food.id, limit: 9, after: after))
            #expect(page.total == 70)
            paged += page.transactions.map(\.id)
            after = page.next
        } while after != nil
        #expect(paged == everything.transactions.map(\.id))
        // The same pages with a condition on the row besides the category (the page is cut after
        // the rows are read, D341), by keyset and by offset, against the whole list filtered here.
        let all = try await store.call(TransactionListRequest(limit: 10_000)).transactions
        let foodIds: Set<Int64> = [ledger.food.id, ledger.groceries.id]
        let expected = all.filter { tx in
            tx.walletId == ledger.checking.id && (tx.categoryId.map(foodIds.contains) ?? tx.splits.contains { foodIds.contains($0.categoryId) })
        }.map(\.id)
        #expect(expected.count == 56)
        var walletPaged: [Int64] = []
        after = nil
        repeat {
            let page = try await store.call(TransactionListRequest(walletId: ledger.checking.id, categoryId: ledger.food.id, limit: 7, after: after))
            #expect(page.total == expected.count)
            walletPaged += page.transactions.map(\.id)
            after = page.next
        } while after != nil
        #expect(walletPaged == expected)
        let offsetPage = try await store.call(TransactionListRequest(walletId: ledger.checking.id, categoryId: ledger.food.id, limit: 5, offset: 10))
        #expect(offsetPage.transactions.map(\.id) == Array(expected[10..<15]))
        let plainOffset = try await store.call(TransactionListRequest(categoryId: ledger.food.id, limit: 5, offset: 10))
        #expect(plainOffset.transactions.map(\.id) == Array(everything.transactions.map(\.id)[10..<15]))
        let march = try await store.call(TransactionListRequest(categoryId: ledger.food.id, from: "2026-03-01"))
        #expect(march.total == 1)
        #expect(march.transactions.map(\.id) == [moved.id])
        let middle = try await store.call(TransactionListRequest(categoryId: ledger.groceries.id, from: "2026-02-10", to: "2026-02-19"))
        #expect(middle.total == 25)
        #expect(try await store.failure(TransactionListRequest(offset: 2, after: TransactionListCursor(date: "2026-02-01", id: 1))).field == "body.after")
        #expect(try await store.failure(TransactionListRequest(after: TransactionListCursor(date: "2026-02-30", id: 1))).field == "body.after.date")
    }

    /// One batch shares its converters among transactions whose currencies differ but whose
    /// converters read the same rates (D368: EUR/JPY and JPY/USD both read EUR, JPY and USD).
    /// Every amount and snapshot must come out as `tx.create` makes them one at a time, each with
    /// converters of its own.
    @Test func anImportBatchConvertsAsSingleCreatesDo() async throws {
        func ledger() async throws -> (Store, [String: WalletRecord]) {
            let store = try await Store()
            for (day, usd, jpy) in [("2026-03-09", "1.0841", "161.37"), ("2026-03-10", "1.0903", "162.05"), ("2026-03-11", "1.0877", "160.98")] {
                _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: usd, asOf: "\(day)T15:00:00Z"))
                _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: jpy, asOf: "\(day)T15:00:00Z"))
            }
            var wallets: [String: WalletRecord] = [:]
            for currency in ["EUR", "USD", "JPY"] { wallets[currency] = try await store.call(WalletCreateRequest(name: "In \(currency)", currency: currency)) }
            return (store, wallets)
        }
        let (batchStore, batchWallets) = try await ledger()
        let (singleStore, singleWallets) = try await ledger()
        // Every wallet with every currency on every day (foreign spending in both directions, crosses
        // through the pivots), interleaved so one converter serves transactions of other pairs.
        var requests: [(wallet: String, TransactionCreateRequest)] = []
        for day in ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"] {
            for wallet in ["JPY", "USD", "EUR"] {
                for (currency, amount) in [("USD", "12.34"), ("EUR", "56.78"), ("JPY", "9100")] {
                    requests.append((wallet, TransactionCreateRequest(kind: .expense, walletId: 0, amount: amount, currency: currency, date: day)))
                }
            }
        }
        func request(_ entry: (wallet: String, TransactionCreateRequest), in wallets: [String: WalletRecord]) throws -> TransactionCreateRequest {
            var request = entry.1
            request.walletId = try #require(wallets[entry.wallet]).id
            return request
        }
        let imported = try await batchStore.call(TransactionImportRequest(importId: "converted", items: try requests.map {
            TransactionImportItem(transaction: try request($0, in: batchWallets))
        }))
        #expect(imported.imported == requests.count)
        let firstId = try #require(imported.firstId)
        for (offset, entry) in requests.enumerated() {
            let single = try await singleStore.call(try request(entry, in: singleWallets))
            let batched = try await batchStore.call(TransactionGetRequest(id: firstId + Int64(offset)))
            #expect(batched.walletAmount == single.walletAmount, "\(entry.wallet) wallet, \(entry.1.amount) \(entry.1.currency ?? "") on \(entry.1.date)")
            #expect(batched.baseAmount == single.baseAmount)
            #expect(batched.conversion == single.conversion)
            #expect(batched.baseConversion == single.baseConversion)
        }
    }

    @Test func anImportBatchIsAllOrNothingSkipsDuplicatesAndIsOneEvent() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let items = (0..<10).map { index in
            TransactionImportItem(line: index + 2, importKey: "row-\(index)", transaction: ledger.expense("\(index + 1).50", ledger.groceries, on: "2026-05-0\(index % 9 + 1)"))
        }
        let dry = try await store.call(TransactionImportRequest(importId: "bank-1", items: items + [items[0]], dryRun: true))
        #expect(dry.imported == 10)
        #expect(dry.duplicates == [TransactionImportDuplicate(line: 2, importKey: "row-0", existingId: nil)])
        #expect(try store.count("transactions") == 0)

        let outcome = try await store.send(TransactionImportRequest(importId: "bank-1", items: items))
        #expect(outcome.events.map(\.type) == ["tx.imported"])
        let event = try MessageCoding.decoder().decode(ChangeEvent.self, from: outcome.events[0].frame)
        let summary = try event.data.decode(TransactionImportSummary.self)
        #expect(summary.count == 10)
        #expect(summary.categoryIds == [ledger.groceries.id])
        #expect(summary.months == ["2026-05"])

        let again = try await store.call(TransactionImportRequest(importId: "bank-2", items: items))
        #expect(again.imported == 0)
        #expect(again.duplicates.count == 10)
        #expect(again.duplicates.allSatisfy { $0.existingId != nil })

        // One bad item: nothing from the batch is kept, and the error names its line.
        var bad = (0..<5).map { TransactionImportItem(line: $0 + 2, importKey: "new-\($0)", transaction: ledger.expense("1.00", ledger.rent)) }
        bad[3].transaction?.amount = "1.001"
        let error = try await store.failure(TransactionImportRequest(importId: "bank-3", items: bad))
        #expect(error.message.hasPrefix("line 5: "))
        #expect(error.field == "body.items[3].transaction.amount")
        #expect(try store.count("transactions") == 10)

        #expect(try await store.call(TransactionImportUndoRequest(importId: "bank-1")).deleted == 10)
        #expect(try store.count("transactions") == 0)
        #expect(try await store.call(WalletGetRequest(id: ledger.checking.id)).balance == "1000.00")
        #expect(try await store.failure(TransactionImportUndoRequest(importId: "bank-1")).code == .notFound)
    }

    @Test func anItemsOwnMistakesPointAtTheItem() async throws {
        let ledger = try await Ledger()
        let neither = try await ledger.store.failure(TransactionImportRequest(importId: "x", items: [TransactionImportItem(line: 7)]))
        #expect(neither.field == "body.items[0]")
        #expect(neither.message.hasPrefix("line 7: "))
        let longKey = TransactionImportItem(importKey: String(repeating: "k", count: 201), transaction: ledger.expense("1", ledger.food))
        #expect(try await ledger.store.failure(TransactionImportRequest(importId: "x", items: [longKey])).field == "body.items[0].importKey")
    }

    @Test func aRetryRecordedBeforeTheHashChangedIsStillARetry() async throws {
        let ledger = try await Ledger()
        let request = WalletCreateRequest(name: "Old", currency: "EUR")
        let reply = try await ledger.store.call(request, key: "from-an-earlier-version")
        // Rewrite the stored hash the way earlier versions made it.
        try await ledger.store.database.pool.write { db in
            try db.execute(sql: "UPDATE idempotency SET body_hash = ? WHERE key = ?",
                           arguments: [CanonicalHash.legacy(try MessageCoding.encode(request)), "from-an-earlier-version"])
        }
        #expect(try await ledger.store.call(request, key: "from-an-earlier-version") == reply)
        #expect(try await ledger.store.failure(WalletCreateRequest(name: "Other", currency: "EUR"), key: "from-an-earlier-version").code == .conflict)
    }

    /// `tx.list` counts a category's matches through the indexes and pages them either by walking
    /// the dates (many matches) or by sorting them (few, up to 10,000): both must find the
    /// subcategories and the split parts, newest first.
    @Test func aCategoryFilterFindsSubcategoriesAndSplitPartsWhetherItsMatchesAreFewOrMany() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let groceries = try await store.call(TransactionImportRequest(importId: "groceries", items: (0..<10_100).map { _ in
            TransactionImportItem(transaction: ledger.expense("1", ledger.groceries, on: "2025-06-15"))
        }))
        let lastGrocery = try #require(groceries.lastId)
        let split = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ledger.checking.id, amount: "30", date: "2026-11-01", splits: [
            SplitPart(amount: "20", categoryId: ledger.groceries.id), SplitPart(amount: "10", categoryId: ledger.rent.id),
        ]))
        let rentOnly = try await store.call(ledger.expense("5", ledger.rent, on: "2026-11-02"))
        _ = try await store.call(ledger.expense("7", nil, on: "2026-11-03"))

        let food = try await store.call(TransactionListRequest(categoryId: ledger.food.id, limit: 3))
        #expect(food.total == 10_101)
        #expect(food.transactions.map(\.id) == [split.id, lastGrocery, lastGrocery - 1])
        let secondPage = try await store.call(TransactionListRequest(categoryId: ledger.food.id, limit: 2, offset: 3))
        #expect(secondPage.transactions.map(\.id) == [lastGrocery - 2, lastGrocery - 3])

        let rent = try await store.call(TransactionListRequest(categoryId: ledger.rent.id))
        #expect(rent.total == 2)
        #expect(rent.transactions.map(\.id) == [rentOnly.id, split.id])
        let recentFood = try await store.call(TransactionListRequest(categoryId: ledger.food.id, from: "2026-01-01"))
        #expect(recentFood.total == 1)
        #expect(recentFood.transactions.map(\.id) == [split.id])
    }

    /// Amounts are accepted up to 10¹⁸ minor units each, so totals of many can pass Int64: the
    /// write is refused as too large and every report still answers.
    @Test func totalsThatWouldOverflowRefuseTheWriteAndReportsStillAnswer() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        let huge = "9999999999999999.99"
        // In one batch: the incomes share one totals row (the wallet's balance never grows).
        let batch = TransactionImportRequest(importId: "huge", items: (0..<20).map { index in
            TransactionImportItem(line: index + 2, transaction: ledger.expense(huge, nil, kind: index.isMultiple(of: 2) ? .income : .expense))
        })
        let refused = try await store.failure(batch)
        #expect(refused.code == .validationFailed)
        #expect(refused.message.contains("too large"), "\(refused.message)")
        // One write at a time: the stored sum is what would overflow (after about nine incomes).
        var refusedInRound: Int?
        for round in 0..<12 {
            do {
                _ = try await store.call(ledger.expense(huge, nil, kind: .income))
                _ = try await store.call(ledger.expense(huge, nil))
            } catch let error as ErrorBody {
                #expect(error.code == .validationFailed)
                #expect(error.message.contains("too large"), "\(error.message)")
                refusedInRound = round
                break
            }
        }
        #expect(refusedInRound != nil)
        _ = try await store.call(CategoryReportRequest())
        _ = try await store.call(CashFlowReportRequest())
        _ = try await store.call(BalanceReportRequest())
        let (kept, rebuilt) = try ledger.totals()
        #expect(kept == rebuilt)
    }

    @Test func aRangeEndingInTheLastRepresentableMonthStopsThere() async throws {
        let ledger = try await Ledger()
        #expect(try await ledger.store.call(CashFlowReportRequest(from: "9999-11", to: "9999-12")).months.map(\.month) == ["9999-11", "9999-12"])
    }

    @Test func exportPagesEveryTransactionInIdOrder() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        _ = try await store.call(TransactionImportRequest(importId: "many", items: (0..<25).map {
            TransactionImportItem(transaction: ledger.expense("\($0 + 1)", ledger.food))
        }))
        var seen: [Int64] = []
        var after: Int64?
        repeat {
            let page = try await store.call(TransactionExportRequest(afterId: after, limit: 10))
            if after == nil { #expect(page.total == 25) }
            seen += page.transactions.map(\.id)
            after = page.nextAfterId
        } while after != nil
        #expect(seen == seen.sorted())
        #expect(Set(seen).count == 25)
    }

    /// In date order the pages follow (date, id), with tags and splits of their own records, and
    /// the cursor is the previous page's (`nextAfterDate`, `nextAfterId`).
    @Test func exportPagesInDateOrderWithTheirTagsAndSplits() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        // Recorded newest first, three to a day, so id order and date order disagree.
        _ = try await store.call(TransactionImportRequest(importId: "days", items: (0..<25).map { index in
            var request = ledger.expense("\(index + 1)", ledger.food, on: String(format: "2026-03-%02d", 28 - index / 3))
            request.tags = index % 4 == 0 ? ["t\(index)"] : []
            return TransactionImportItem(transaction: request)
        }))
        var seen: [TransactionRecord] = []
        var after: (date: String, id: Int64)?
        repeat {
            let page = try await store.call(TransactionExportRequest(afterId: after?.id, limit: 7, order: .date, afterDate: after?.date))
            if after == nil { #expect(page.total == 25) }
            seen += page.transactions
            after = page.nextAfterId.map { (page.nextAfterDate ?? "missing", $0) }
            #expect(page.nextAfterDate == (page.nextAfterId == nil ? nil : page.transactions.last?.date))
        } while after != nil
        #expect(seen.count == 25)
        #expect(seen.map { "\($0.date) \($0.id)" } == seen.map { "\($0.date) \($0.id)" }.sorted { lhs, rhs in
            let (l, r) = (lhs.split(separator: " "), rhs.split(separator: " "))
            return (l[0], Int(l[1])!) < (r[0], Int(r[1])!)
        })
        for record in seen {
            // Amount n was tagged t(n - 1) when n - 1 is a multiple of 4.
            let index = Int(record.amount.prefix { $0 != "." })! - 1
            #expect(record.tags == (index % 4 == 0 ? ["t\(index)"] : []), "\(record.id)")
        }
        // A cursor of one part, or a date in id order, is refused with the field named.
        #expect(try await store.failure(TransactionExportRequest(afterId: 3, order: .date)).field == "body.afterDate")
        #expect(try await store.failure(TransactionExportRequest(order: .date, afterDate: "2026-03-01")).field == "body.afterId")
        #expect(try await store.failure(TransactionExportRequest(afterId: 3, afterDate: "2026-03-01")).field == "body.afterDate")
        #expect(try await store.failure(TransactionExportRequest(afterId: 3, order: .date, afterDate: "March")).field == "body.afterDate")
    }

    /// `conversions: false` pages the very same records without their rate snapshots, in either order.
    @Test func exportWithoutConversionsLeavesOutOnlyTheSnapshots() async throws {
        let ledger = try await Ledger()
        let store = ledger.store
        _ = try await store.call(TransactionImportRequest(importId: "mixed", items: [
            TransactionImportItem(transaction: ledger.expense("12.50", ledger.food)),
            TransactionImportItem(transaction: ledger.expense("1500", ledger.food, wallet: ledger.yen)),
            TransactionImportItem(transaction: ledger.expense("3000", ledger.rent, currency: "JPY")),
        ]))
        for order in [TransactionExportOrder.id, .date] {
            let full = try await store.call(TransactionExportRequest(limit: 10, order: order))
            #expect(full.transactions.count == 3)
            #expect(full.transactions.contains { $0.conversion != nil })
            #expect(full.transactions.contains { $0.baseConversion != nil })
            var stripped = full
            for index in stripped.transactions.indices {
                stripped.transactions[index].conversion = nil
                stripped.transactions[index].baseConversion = nil
            }
            #expect(try await store.call(TransactionExportRequest(limit: 10, order: order, conversions: false)) == stripped)
            #expect(try await store.call(TransactionExportRequest(limit: 10, order: order, conversions: true)) == full)
        }
    }
}

private extension TransactionCreateRequest {
    func with(category: Int64) -> TransactionCreateRequest {
        var copy = self
        copy.categoryId = category
        return copy
    }
}
