import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
@testable import LedgerlyStore
import Testing

/// A `tx.import` batch planned when it is decoded, while earlier requests are still being applied
/// (D370): the plan is used only while nothing it read can have changed, and a batch applied with
/// a plan gives what it would have given without one.
@Suite struct ImportPlanTests {
    private func environment(_ store: Store) -> StoreRouteEnvironment {
        StoreRouteEnvironment(database: store.database, clock: .system, setupGate: SetupGate(completed: true))
    }

    @Test func aRateSetAfterTheBatchWasDecodedConvertsIt() async throws {
        let store = try await Store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let batch = TransactionImportRequest(importId: "late-rate", items: [
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "12.34", date: "2026-03-10")),
        ])
        // Decoded (and planned) while no EUR/USD rate is known: the plan has no base amount.
        let decoded = try store.prepare(batch)
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0903", asOf: "2026-03-10T15:00:00Z"))
        // Applied after the rate: the write converts with it, as a transaction created now does.
        let imported = try Store.body(of: decoded(), as: TransactionImportReply.self)
        let recorded = try await store.call(TransactionGetRequest(id: try #require(imported.firstId)))
        let created = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "12.34", date: "2026-03-10"))
        #expect(created.baseAmount == "11.32")
        #expect(recorded.baseAmount == created.baseAmount)
        #expect(recorded.baseConversion == created.baseConversion)
    }

    /// A batch keeps one conversion per currency pair and moment and applies its legs to the
    /// batch's other amounts (D383): each transaction must be recorded as it would be on its own,
    /// through a direct rate, an inverted one and a pivot, and an amount whose conversion is too
    /// large is refused with the words a single transaction gets, after one of the same pair.
    @Test func aBatchConvertsEachAmountAsATransactionOnItsOwnDoes() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
        // EUR per JPY stored (about 1/161.2 and 1/160.7): JPY → EUR is direct, EUR → JPY inverted.
        for (day, usd, eurPerYen) in [("2026-03-09", "1.0903", "0.0062035"), ("2026-03-10", "1.0950", "0.0062228")] {
            _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: usd, asOf: "\(day)T15:00:00Z"))
            _ = try await store.call(RateSetRequest(base: "JPY", quote: "EUR", rate: eurPerYen, asOf: "\(day)T15:00:00Z"))
        }
        var requests: [TransactionCreateRequest] = []
        for day in ["2026-03-09", "2026-03-10"] {
            for (dollars, yens) in [("0.01", "1"), ("0.05", "3"), ("12.34", "1234"), ("999.99", "99999"), ("7", "7")] {
                requests.append(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: dollars, currency: "USD", date: day))
                requests.append(TransactionCreateRequest(kind: .income, walletId: yen.id, amount: dollars, currency: "USD", date: day))
                requests.append(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: yens, currency: "JPY", date: day))
            }
        }
        let imported = try await store.call(TransactionImportRequest(importId: "kept-legs", items: requests.map { TransactionImportItem(transaction: $0) }))
        let recorded = try await store.call(TransactionListRequest(limit: 100)).transactions.filter { $0.importId == "kept-legs" }.sorted { $0.id < $1.id }
        #expect(imported.imported == requests.count && recorded.count == requests.count)
        for (request, batch) in zip(requests, recorded) {
            let alone = try await store.call(request)
            #expect(batch.walletAmount == alone.walletAmount && batch.baseAmount == alone.baseAmount, "\(request.amount) \(request.currency ?? "") in wallet \(request.walletId) on \(request.date)")
            #expect(batch.conversion == alone.conversion && batch.baseConversion == alone.baseConversion)
        }
        let huge = TransactionCreateRequest(kind: .expense, walletId: yen.id, amount: "9000000000000", currency: "USD", date: "2026-03-10")
        let refusedAlone = try await store.failure(huge)
        let refusedInBatch = try await store.failure(TransactionImportRequest(importId: "too-large", items: [
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: yen.id, amount: "1", currency: "USD", date: "2026-03-10")),
            TransactionImportItem(transaction: huge),
        ]))
        #expect(refusedInBatch.field == "body.items[1].transaction.amount" && refusedAlone.field == "body.amount")
        #expect(refusedInBatch.message == "item 2: " + refusedAlone.message)
    }

    @Test func aWalletArchivedAfterTheBatchWasDecodedRefusesIt() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let batch = TransactionImportRequest(importId: "archived", items: [
            TransactionImportItem(line: 2, transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "5", date: "2026-03-10")),
        ])
        let decoded = try store.prepare(batch)
        _ = try await store.call(WalletArchiveRequest(id: cash.id))
        do {
            _ = try Store.body(of: decoded(), as: TransactionImportReply.self)
            Issue.record("the batch was imported into an archived wallet")
        } catch let error as ErrorBody {
            #expect(error.field == "body.items[0].transaction.walletId")
            #expect(error.message.contains("archived"))
        }
        #expect(try store.count("transactions") == 0)
    }

    @Test func onlyWritesOtherThanImportsRetireAPlan() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        func batch(_ id: String) -> TransactionImportRequest {
            TransactionImportRequest(importId: id, items: [
                TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "5", date: "2026-03-10", tags: ["trip"])),
            ])
        }
        let plan = try #require(ImportPlan.make(batch("second"), environment(store)))
        #expect(plan.isCurrent(at: Date()))
        // The batch ahead of it in the pipeline (creating a tag on the way) leaves it current…
        _ = try await store.call(batch("first"))
        #expect(plan.isCurrent(at: Date()))
        // …and so does a refused write (it changed nothing); any other write retires it,
        // whatever it changed.
        _ = try await store.failure(CategoryCreateRequest(name: "", kind: .expense))
        #expect(plan.isCurrent(at: Date()))
        _ = try await store.call(CategoryCreateRequest(name: "Travel", kind: .expense))
        #expect(!plan.isCurrent(at: Date()))
        // A plan is for the day it was made on.
        let later = try #require(ImportPlan.make(batch("fourth"), environment(store)))
        #expect(!later.isCurrent(at: Date().addingTimeInterval(86_400)))
    }

    @Test func aCurrentPlanIsWhatTheBatchRecords() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let batch = TransactionImportRequest(importId: "planned", items: [
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "5", date: "2026-03-10")),
        ])
        let decoded = try store.prepare(batch)
        // Archived behind the store's back (no write through it, so the count stays): the plan,
        // which found the wallet active, is what the batch records.
        try await store.database.pool.write { try $0.execute(sql: "UPDATE wallets SET archived = 1 WHERE id = ?", arguments: [cash.id]) }
        let imported = try Store.body(of: decoded(), as: TransactionImportReply.self)
        #expect(imported.imported == 1)
    }

    /// The same batch, planned and used in one store and planned but retired in the other:
    /// every transaction recorded the same, and the same report totals and balances, across
    /// foreign spending, splits, tags, transfers in one currency and across two, kept amounts,
    /// refused items and duplicates.
    @Test func aBatchRecordsTheSameWithItsPlanAsWithout() async throws {
        func ledger() async throws -> (Store, WalletRecord, WalletRecord, CategoryRecord, CategoryRecord) {
            let store = try await Store()
            for day in ["2026-03-09", "2026-03-10"] {
                _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: day.hasSuffix("09") ? "1.0841" : "1.0903", asOf: "\(day)T15:00:00Z"))
            }
            let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
            let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
            let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
            let fun = try await store.call(CategoryCreateRequest(name: "Fun", kind: .expense))
            return (store, cash, dollars, food, fun)
        }
        func batch(_ cash: WalletRecord, _ dollars: WalletRecord, _ food: CategoryRecord, _ fun: CategoryRecord) -> TransactionImportRequest {
            TransactionImportRequest(importId: "same", items: [
                TransactionImportItem(importKey: "a", transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "12.34", currency: "USD", categoryId: food.id, notes: "Diner", date: "2026-03-09", tags: ["trip", "Food"])),
                TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "30", date: "2026-03-10",
                                                                            splits: [SplitPart(amount: "10.01", categoryId: food.id), SplitPart(amount: "19.99", categoryId: fun.id, memo: "tickets")])),
                TransactionImportItem(transaction: TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: "7", date: "2026-03-11", tags: ["trip"])),
                TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: cash.id, toWalletId: dollars.id, amount: "100", toAmount: "109.03", date: "2026-03-10", notes: "cash out")),
                TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: dollars.id, toWalletId: cash.id, amount: "5", toAmount: "4.60", date: "2026-03-09", tags: ["x"])),
                TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "3", date: "2026-03-09"),
                                      kept: KeptAmounts(baseAmount: "2.95", createdAt: "2026-03-09T10:00:00Z", updatedAt: "2026-03-09T11:00:00Z")),
                TransactionImportItem(importKey: "a", transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "99", date: "2026-03-09")),
            ])
        }
        let (planned, cash, dollars, food, fun) = try await ledger()
        let (retired, _, _, _, _) = try await ledger()
        let withPlan = try planned.prepare(batch(cash, dollars, food, fun))
        let withoutPlan = try retired.prepare(batch(cash, dollars, food, fun))
        retired.database.writeGeneration.advance()
        let one = try Store.body(of: withPlan(), as: TransactionImportReply.self)
        let other = try Store.body(of: withoutPlan(), as: TransactionImportReply.self)
        #expect(one == other)
        #expect(one.imported == 6 && one.duplicates.count == 1)
        for id in try #require(one.firstId)...(try #require(one.lastId)) {
            func recorded(_ store: Store) async throws -> TransactionRecord {
                var record = try await store.call(TransactionGetRequest(id: id))
                // The moment each write ran; the kept item's times are compared through its twin.
                if record.createdAt != "2026-03-09T10:00:00.000Z" { record.createdAt = ""; record.updatedAt = "" }
                return record
            }
            #expect(try await recorded(planned) == recorded(retired))
        }
        // The report totals and balances too: the plan added up those of the items without an
        // import key (the write adds the others, and skips the duplicate), the write alone all.
        let plan = try #require(ImportPlan.make(batch(cash, dollars, food, fun), environment(planned)))
        #expect(plan.totalled == [false, true, true, true, true, true, false])
        func totals(_ store: Store) async throws -> [String] {
            try await store.database.pool.read { db in
                try ["ledger_totals", "category_totals", "payee_totals"].flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table) \($0)" }
                } + Row.fetchAll(db, sql: "SELECT id, balance_minor FROM wallets").map { "wallets \($0)" }
            }.sorted()
        }
        let plannedTotals = try await totals(planned)
        #expect(plannedTotals == (try await totals(retired)))
        #expect(plannedTotals.count(where: { $0.hasPrefix("ledger_totals") }) >= 6)
        // A refusal reads the same too.
        let refused = TransactionImportRequest(importId: "refused", items: [
            TransactionImportItem(line: 7, transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "1.234", date: "2026-03-09")),
        ])
        let refusedWithPlan = try planned.prepare(refused)
        let refusedWithout = try retired.prepare(refused)
        retired.database.writeGeneration.advance()
        let bodies = try [refusedWithPlan(), refusedWithout()].map { try MessageCoding.decoder().decode(Envelope<ErrorBody>.self, from: $0.reply).body }
        #expect(bodies[0].message.hasPrefix("line 7:"))
        #expect(bodies[0] == bodies[1])
    }

    @Test func whatReadsTheClockIsLeftToTheWrite() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let today = Timestamp.today()
        let plan = try #require(ImportPlan.make(TransactionImportRequest(importId: "clock", items: [
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "1", date: "2026-03-10")),
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "1", date: today)),
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "1", currency: "USD", rate: "0.9", date: "2026-03-10")),
            TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: cash.id, toWalletId: dollars.id, amount: "1", toAmount: "1.1", date: "2026-03-10")),
            TransactionImportItem(transfer: TransferCreateRequest(fromWalletId: cash.id, toWalletId: dollars.id, amount: "1", toAmount: "1.1", date: today)),
            TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: 999, amount: "1", date: today)),
        ]), environment(store)))
        // Run across midnight, the items dated "today" would be yesterday's: nothing to check.
        guard Timestamp.today() == today else { return }
        #expect(plan.items.map { $0 != nil } == [true, false, false, true, false, true])
    }

    @Test func aBadTagIsNamedBeforeAConversionThatFails() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        // No EUR/USD rate: converting the amount into the wallet's currency fails; the tag is
        // checked first, with a plan as without one.
        let item = TransactionImportItem(transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "3", currency: "USD", date: "2026-03-10", tags: ["a,b"]))
        let error = try await store.failure(TransactionImportRequest(importId: "tag-first", items: [item]))
        #expect(error.field == "body.items[0].transaction.tags[0]")
        let single = try await store.failure(try #require(item.transaction))
        #expect(single.field == "body.tags[0]")
    }
}
