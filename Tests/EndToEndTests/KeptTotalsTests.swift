import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The category, cash-flow and payee reports answer from totals the store keeps on every
    /// write. Checked from outside: after a seeded mix of every kind of write (creates with and
    /// without splits, foreign amounts, transfers, updates of amount, category, splits, notes and
    /// date, deletes, imports and their undo), each report must equal a recomputation from every
    /// transaction the store lists; and again after the store is killed and started again.
    @Suite struct KeptTotalsTests {
        @Test func reportsEqualARecomputationFromTheTransactionsAfterEveryKindOfWrite() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            _ = try client.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "160", asOf: "2025-12-01T00:00:00Z"))
            let checking = try client.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
            let yen = try client.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
            let savings = try client.call(WalletCreateRequest(name: "Savings", currency: "EUR"))
            let food = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
            let groceries = try client.call(CategoryCreateRequest(name: "Groceries", parentId: food.id))
            let rent = try client.call(CategoryCreateRequest(name: "Rent", kind: .expense))
            let salary = try client.call(CategoryCreateRequest(name: "Salary", kind: .income))
            let categories: [CategoryRecord?] = [food, groceries, rent, salary, nil]
            let notes: [String?] = ["Bakery", "bakery", "BAKERY", "Landlord", "Café", "ACME", nil]

            var random = SplitMix(seed: 16)
            func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
            func date() -> String { "2026-0\(1 + random.next() % 5)-\(String(format: "%02d", 1 + random.next() % 28))" }
            func euros() -> String { "\(1 + random.next() % 300).\(String(format: "%02d", random.next() % 100))" }
            func transaction() -> TransactionCreateRequest {
                let kind: TransactionKind = random.next() % 4 == 0 ? .income : .expense
                if random.next() % 4 == 0 {
                    return TransactionCreateRequest(kind: kind, walletId: yen.id, amount: "\(100 + random.next() % 20_000)", categoryId: pick(categories)?.id, notes: pick(notes), date: date())
                }
                if random.next() % 5 == 0 {
                    // Split parts in a wallet in the base currency: each part's base amount is the part.
                    return TransactionCreateRequest(kind: kind, walletId: checking.id, amount: "30.00", notes: pick(notes), date: date(),
                                                    splits: [SplitPart(amount: "12.34", categoryId: groceries.id), SplitPart(amount: "17.66", categoryId: pick([rent, salary, food]).id)])
                }
                return TransactionCreateRequest(kind: kind, walletId: checking.id, amount: euros(), categoryId: pick(categories)?.id, notes: pick(notes), date: date())
            }

            var ids: [Int64] = []
            var imports: [String] = []
            for step in 0..<160 {
                switch random.next() % 9 {
                case 0, 1, 2:
                    ids.append(try client.call(transaction()).id)
                case 3:
                    let from = pick([checking, savings]), to = pick([yen, savings, checking].filter { $0.id != from.id })
                    let reply = try client.call(TransferCreateRequest(fromWalletId: from.id, toWalletId: to.id, amount: "10.00", toAmount: to.currency == "JPY" ? "1600" : nil,
                                                                      date: date(), notes: pick(notes)))
                    ids.append(reply.outgoing.id)
                case 4 where !ids.isEmpty:
                    let record = try? client.call(TransactionGetRequest(id: pick(ids)))
                    guard let record else { continue }
                    if record.transfer != nil {
                        _ = try client.call(TransactionUpdateRequest(id: record.id, notes: pick(notes.compactMap { $0 }), date: date()))
                    } else if record.currency == "EUR" && random.next() % 2 == 0 {
                        _ = try client.call(TransactionUpdateRequest(id: record.id, amount: "50.00", date: date(),
                                                                     splits: [SplitPart(amount: "20.00", categoryId: rent.id), SplitPart(amount: "30.00", categoryId: groceries.id)]))
                    } else {
                        _ = try client.call(TransactionUpdateRequest(id: record.id, amount: record.currency == "JPY" ? "777" : euros(), categoryId: pick([food, rent, salary]).id,
                                                                     notes: pick(notes.compactMap { $0 }), date: date(), splits: []))
                    }
                case 5 where !ids.isEmpty:
                    _ = try? client.call(TransactionDeleteRequest(id: ids.remove(at: Int(random.next() % UInt64(ids.count)))))
                case 6, 7:
                    let importId = "batch-\(step)"
                    _ = try client.call(TransactionImportRequest(importId: importId, items: (0..<6).map { index in
                        index == 5
                            ? TransactionImportItem(line: index + 2, transfer: TransferCreateRequest(fromWalletId: checking.id, toWalletId: savings.id, amount: "5.00", date: date()))
                            : TransactionImportItem(line: index + 2, transaction: transaction())
                    }))
                    imports.append(importId)
                default:
                    if !imports.isEmpty {
                        _ = try client.call(TransactionImportUndoRequest(importId: imports.remove(at: Int(random.next() % UInt64(imports.count)))))
                    }
                }
            }

            try Self.expectReportsEqualRecomputation(client)
            harness.stop(.store, signal: SIGKILL)
            try harness.start(.store)
            let again = harness.client(timeoutMilliseconds: 10_000)
            defer { again.close() }
            try Self.expectReportsEqualRecomputation(again)
        }

        /// Every report, against sums over `tx.list` (the oracle reads only the transactions).
        static func expectReportsEqualRecomputation(_ client: RequestClient) throws {
            let transactions = try client.call(TransactionListRequest(limit: 10_000)).transactions.filter { $0.transfer == nil }
            #expect(transactions.count > 100)
            let categories = Dictionary(uniqueKeysWithValues: try client.call(CategoryListRequest()).categories.map { ($0.id, $0) })
            func kind(_ id: Int64?, _ transaction: TransactionRecord) -> CategoryKind {
                id.flatMap { categories[$0]?.kind } ?? (transaction.kind == .income ? .income : .expense)
            }
            func ancestors(_ id: Int64) -> [Int64] {
                var chain = [id]
                while let parent = categories[chain.last!]?.parentId { chain.append(parent) }
                return chain
            }

            // Categories: the base amount of each part, positive for spending, added up to every ancestor.
            let categoryReport = try client.call(CategoryReportRequest())
            var cells: [String: [String: Int64]] = [:]  // path → month → minor units
            var income: [String: Int64] = [:], expenses: [String: Int64] = [:]
            for transaction in transactions {
                let base = try #require(transaction.baseAmount.map(Self.minor), "transaction \(transaction.id) has no base amount")
                let parts = transaction.splits.isEmpty ? [(base, transaction.categoryId)] : transaction.splits.map { (Self.minor($0.amount), Optional($0.categoryId)) }
                let month = String(transaction.date.prefix(7))
                for (amount, categoryId) in parts {
                    let effect = (transaction.kind == .income ? 1 : -1) * Int64(amount.magnitude)
                    let partKind = kind(categoryId, transaction)
                    let shown = partKind == .expense ? -effect : effect
                    let paths = categoryId.map { ancestors($0).map { categories[$0]!.path } } ?? ["uncategorized \(partKind)"]
                    for path in paths { cells[path, default: [:]][month, default: 0] += shown }
                    if partKind == .expense { expenses[month, default: 0] -= effect } else { income[month, default: 0] += effect }
                }
            }
            func key(_ row: CategoryReportRow) -> String { row.categoryId == nil ? "uncategorized \(row.kind)" : row.path }
            for row in categoryReport.categories {
                let expected = categoryReport.months.map { Self.format(cells[key(row)]?[$0] ?? 0) }
                #expect(row.months == expected, "\(key(row))")
            }
            #expect(Set(categoryReport.categories.map(key)) == Set(cells.keys))
            #expect(categoryReport.uncounted == 0)

            let flow = try client.call(CashFlowReportRequest())
            #expect(flow.months.map(\.income) == flow.months.map { Self.format(income[$0.month] ?? 0) })
            #expect(flow.months.map(\.expenses) == flow.months.map { Self.format(expenses[$0.month] ?? 0) })

            // Payees: notes equal ignoring ASCII case, whole base amounts, expenses; in full and
            // for a range that starts and ends inside a month.
            for (from, to) in [("0000-01-01", "9999-12-31"), ("2026-02-10", "2026-04-17")] {
                var groups: [String: (names: [String], count: Int, total: Int64)] = [:]
                for transaction in transactions where transaction.kind == .expense && transaction.date >= from && transaction.date <= to {
                    guard let note = transaction.notes else { continue }
                    let key = String(note.unicodeScalars.map { $0.isASCII ? Character(String($0).lowercased()) : Character($0) })
                    var group = groups[key] ?? ([], 0, 0)
                    group.names.append(note)
                    group.count += 1
                    group.total += Self.minor(transaction.baseAmount!)
                    groups[key] = group
                }
                let expected = groups.values.map { (payee: $0.names.min()!, count: $0.count, total: $0.total.magnitude) }
                    .sorted { $0.total != $1.total ? $0.total > $1.total : $0.payee < $1.payee }
                let payees = try client.call(PayeeReportRequest(from: from == "0000-01-01" ? nil : from, to: to == "9999-12-31" ? nil : to, kind: .expense, limit: 1_000)).payees
                #expect(payees.map(\.payee) == expected.map(\.payee), "\(from)…\(to)")
                #expect(payees.map(\.count) == expected.map(\.count), "\(from)…\(to)")
                #expect(payees.map(\.total) == expected.map { Self.format(Int64($0.total)) }, "\(from)…\(to)")
            }
        }

        /// "-12.34" → -1234 (amounts in EUR, the base currency).
        static func minor(_ text: String) -> Int64 {
            let negative = text.hasPrefix("-")
            let digits = text.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
            let whole = Int64(digits[0])!, cents = digits.count > 1 ? Int64(digits[1].padding(toLength: 2, withPad: "0", startingAt: 0))! : 0
            return (negative ? -1 : 1) * (whole * 100 + cents)
        }

        static func format(_ minor: Int64) -> String {
            let sign = minor < 0 ? "-" : "", value = minor.magnitude
            return "\(sign)\(value / 100).\(String(format: "%02d", Int(value % 100)))"
        }
    }
}
