import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
@testable import LedgerlyStore
import Testing

/// The store's request handling against a real SQLite database in a temporary folder,
/// without sockets: idempotency, the setup gate, maintained balances, and rules of the ledger.
@Suite struct StoreRouterTests {
    @Test func ledgerCommandsWaitForSetup() async throws {
        let store = try await Store(setUp: false)
        #expect(try await store.failure(WalletListRequest()).code == .setupRequired)
        #expect(try await store.call(SettingsGetRequest()).onboardingCompleted == false)
        _ = try await store.call(SetupSaveRequest(progress: OnboardingProgress(step: 3, baseCurrency: "JPY")))
        #expect(try await store.call(SettingsGetRequest()).onboardingProgress?.baseCurrency == "JPY")
        _ = try await store.call(SetupCompleteRequest(baseCurrency: "JPY", exchangeMode: .parallel, cloudSync: false))
        #expect(try await store.call(WalletListRequest()).wallets.isEmpty)
        #expect(try await store.call(SettingsGetRequest()).onboardingProgress == nil)
    }

    @Test func aKeyIsAppliedOnceAndReusedKeysConflict() async throws {
        let store = try await Store()
        let first = try await store.send(WalletCreateRequest(name: "Cash", currency: "EUR"), key: "same")
        let second = try await store.send(WalletCreateRequest(name: "Cash", currency: "EUR"), key: "same")
        #expect(first.events.count == 1)
        #expect(second.events.isEmpty)
        let firstBody = try MessageCoding.decoder().decode(Envelope<WalletRecord>.self, from: first.reply).body
        let secondBody = try MessageCoding.decoder().decode(Envelope<WalletRecord>.self, from: second.reply).body
        #expect(firstBody == secondBody)
        #expect(try store.count("wallets") == 1)
        let conflict = try await store.send(WalletCreateRequest(name: "Card", currency: "EUR"), key: "same")
        #expect(try MessageCoding.decoder().decode(Envelope<ErrorBody>.self, from: conflict.reply).body.code == .conflict)
    }

    @Test func everyChangeIsLoggedInOrderWithItsEntity() async throws {
        let store = try await Store()
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let outcome = try await store.send(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "4.20", date: "2026-11-21", tags: ["coffee"]))
        #expect(outcome.events.map(\.type) == ["tag.created", "tx.created"])
        let log = try await store.call(EventsSinceRequest(after: 0))
        #expect(log.events.map(\.seq) == [1, 2, 3, 4])
        #expect(log.events.map(\.type) == ["setup.completed", "wallet.created", "tag.created", "tx.created"])
        #expect(log.lastSeq == 4)
        #expect(try await store.call(EventsSinceRequest(after: 2, limit: 1)).events.map(\.seq) == [3])
    }

    @Test func balancesFollowCreateUpdateAndDelete() async throws {
        let store = try await Store()
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100.00"))
        let coffee = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "4.20", date: "2026-11-21"))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "95.80")
        _ = try await store.call(TransactionUpdateRequest(id: coffee.id, kind: .income, amount: "10"))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "110.00")
        _ = try await store.call(WalletUpdateRequest(id: wallet.id, startingBalance: "50"))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "60.00")
        _ = try await store.call(TransactionDeleteRequest(id: coffee.id))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "50.00")

        let other = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR"))
        let moved = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "7.00", date: "2026-11-21"))
        _ = try await store.call(TransactionUpdateRequest(id: moved.id, walletId: other.id))
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "50.00")
        #expect(try await store.call(WalletGetRequest(id: other.id)).balance == "-7.00")
    }

    @Test func splitsMustAddUpAndTransferLegsStayLinked() async throws {
        let store = try await Store()
        let euro = try await store.call(WalletCreateRequest(name: "Euro", currency: "EUR", startingBalance: "500"))
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let home = try await store.call(CategoryCreateRequest(name: "Home", kind: .expense))
        let parts = [SplitPart(amount: "20.00", categoryId: food.id), SplitPart(amount: "5.00", categoryId: home.id)]
        let wrong = try await store.failure(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "30.00", date: "2026-11-21", splits: parts))
        #expect(wrong.field == "body.splits")
        #expect(wrong.message.contains("25.00"))
        let split = try await store.call(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "25", date: "2026-11-21", splits: parts))
        #expect(split.splits.map(\.amount) == ["20.00", "5.00"])
        #expect(try await store.failure(TransactionUpdateRequest(id: split.id, amount: "26")).field == "body.amount")

        #expect(try await store.failure(TransferCreateRequest(fromWalletId: euro.id, toWalletId: yen.id, amount: "100", date: "2026-11-21")).field == "body.toAmount")
        let transfer = try await store.call(TransferCreateRequest(fromWalletId: euro.id, toWalletId: yen.id, amount: "100", toAmount: "16250", date: "2026-11-21"))
        #expect(transfer.outgoing.transfer?.counterpartyTransactionId == transfer.incoming.id)
        #expect(transfer.incoming.transfer?.counterpartyTransactionId == transfer.outgoing.id)
        #expect(try await store.failure(TransactionUpdateRequest(id: transfer.incoming.id, amount: "1")).field == "body.amount")
        #expect(try await store.call(TransactionDeleteRequest(id: transfer.incoming.id)).deletedIds.sorted() == [transfer.outgoing.id, transfer.incoming.id].sorted())
        #expect(try await store.call(WalletGetRequest(id: yen.id)).balance == "0")
        #expect(try await store.call(WalletGetRequest(id: euro.id)).balance == "475.00")
    }

    @Test func categoriesFormATreeWithoutCycles() async throws {
        let store = try await Store()
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let groceries = try await store.call(CategoryCreateRequest(name: "Groceries", parentId: food.id))
        let fruit = try await store.call(CategoryCreateRequest(name: "Fruit", parentId: groceries.id))
        #expect(fruit.path == "Food/Groceries/Fruit")
        #expect(fruit.kind == .expense)
        #expect(try await store.failure(CategoryUpdateRequest(id: food.id, parentId: fruit.id)).field == "body.parentId")
        let salary = try await store.call(CategoryCreateRequest(name: "Salary", kind: .income))
        #expect(try await store.failure(CategoryCreateRequest(name: "Bonus", kind: .expense, parentId: salary.id)).field == "body.kind")
        #expect(try await store.failure(CategoryCreateRequest(name: "groceries", parentId: food.id)).code == .conflict)
        let moved = try await store.call(CategoryUpdateRequest(id: fruit.id, makeTopLevel: true))
        #expect(moved.path == "Fruit")
        let names = try await store.call(CategoryListRequest()).categories.map(\.path)
        #expect(names == ["Salary", "Food", "Food/Groceries", "Fruit"])
    }

    /// `CategoryRow(row:)` reads each column by name (no `Decodable`): every field a category
    /// is created with comes back the same from `category.list` and from a lookup by id.
    @Test func everyCategoryFieldReadsBackAsCreated() async throws {
        let store = try await Store()
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense, icon: "🍎", color: "#12AB34", budgetingEnabled: false, sortOrder: -7))
        let bakery = try await store.call(CategoryCreateRequest(name: "Bäckerei", parentId: food.id, icon: nil, color: nil, budgetingEnabled: true, sortOrder: 3))
        let listed = try await store.call(CategoryListRequest()).categories
        #expect(listed == [food, bakery])
        #expect(listed.first == CategoryRecord(id: food.id, name: "Food", kind: .expense, parentId: nil, path: "Food", icon: "🍎", color: "#12AB34",
                                               budgetingEnabled: false, sortOrder: -7))
        #expect(listed.last?.parentId == food.id)
        #expect(listed.last?.path == "Food/Bäckerei")
        #expect(try await store.call(CategoryGetRequest(id: bakery.id)) == bakery)
    }

    @Test func archivedWalletsTakeNoNewTransactions() async throws {
        let store = try await Store()
        let wallet = try await store.call(WalletCreateRequest(name: "Old", currency: "EUR"))
        _ = try await store.call(WalletArchiveRequest(id: wallet.id))
        #expect(try await store.call(WalletListRequest()).wallets.isEmpty)
        #expect(try await store.call(WalletListRequest(includeArchived: true)).wallets.count == 1)
        #expect(try await store.failure(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1", date: "2026-11-21")).field == "body.walletId")
    }

    @Test func setupCompletesOnceAndTheBaseCurrencyIsFixedOnceTransactionsExist() async throws {
        let store = try await Store()
        #expect(try await store.failure(SetupCompleteRequest(baseCurrency: "USD", exchangeMode: .manual, cloudSync: true)).code == .conflict)
        #expect(try await store.call(SettingsUpdateRequest(baseCurrency: "CHF")).baseCurrency == "CHF")
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "CHF"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1", date: "2026-11-21"))
        let refused = try await store.failure(SettingsUpdateRequest(baseCurrency: "EUR"))
        #expect(refused.code == .conflict)
        #expect(refused.field == "body.baseCurrency")
        #expect(try await store.call(SettingsUpdateRequest(baseCurrency: "chf")).baseCurrency == "CHF")
    }

    @Test func amountsAndSplitsHaveBoundsThatKeepSumsExact() async throws {
        let store = try await Store()
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let huge = try await store.failure(TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: "92233720368547758.07", date: "2026-11-21"))
        #expect(huge.field == "body.amount")
        #expect(huge.message.contains("too large"))
        let overflowingParts = [SplitPart(amount: "92233720368547758.07", categoryId: food.id), SplitPart(amount: "0.01", categoryId: food.id)]
        #expect(try await store.failure(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1", date: "2026-11-21", splits: overflowingParts)).field == "body.splits[0].amount")
        let tooMany = Array(repeating: SplitPart(amount: "0.01", categoryId: food.id), count: 101)
        #expect(try await store.failure(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.01", date: "2026-11-21", splits: tooMany)).field == "body.splits")
        #expect(try await store.failure(WalletCreateRequest(name: "Big", currency: "EUR", sortOrder: Int.max)).field == "body.sortOrder")
        // Many large amounts still add up exactly in the balance.
        for _ in 0..<5 {
            _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: "9999999999999.99", date: "2026-11-21"))
        }
        #expect(try await store.call(WalletGetRequest(id: wallet.id)).balance == "49999999999999.95")
    }

    @Test func aTransactionHasACategoryOrSplitsNotBoth() async throws {
        let store = try await Store()
        let wallet = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let food = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense))
        let home = try await store.call(CategoryCreateRequest(name: "Home", kind: .expense))
        let parts = [SplitPart(amount: "2", categoryId: food.id), SplitPart(amount: "3", categoryId: home.id)]
        #expect(try await store.failure(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "5", categoryId: food.id, date: "2026-11-21", splits: parts)).field == "body.splits")
        let plain = try await store.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "5", categoryId: food.id, date: "2026-11-21"))
        let split = try await store.call(TransactionUpdateRequest(id: plain.id, splits: parts))
        #expect(split.categoryId == nil)
        #expect(split.splits.count == 2)
        #expect(try await store.failure(TransactionUpdateRequest(id: plain.id, categoryId: home.id)).field == "body.categoryId")
        let single = try await store.call(TransactionUpdateRequest(id: plain.id, categoryId: home.id, splits: []))
        #expect(single.categoryId == home.id)
        #expect(single.splits.isEmpty)
    }

    @Test func editingOneTransferLegKeepsBothLegsInStep() async throws {
        let store = try await Store()
        let a = try await store.call(WalletCreateRequest(name: "A", currency: "EUR"))
        let b = try await store.call(WalletCreateRequest(name: "B", currency: "EUR"))
        let transfer = try await store.call(TransferCreateRequest(fromWalletId: a.id, toWalletId: b.id, amount: "10", date: "2026-11-20"))
        let outcome = try await store.send(TransactionUpdateRequest(id: transfer.incoming.id, notes: "rent share", date: "2026-11-21", tags: ["home"]))
        #expect(outcome.events.map(\.type) == ["tag.created", "tx.updated", "tx.updated"])
        for id in [transfer.outgoing.id, transfer.incoming.id] {
            let leg = try await store.call(TransactionGetRequest(id: id))
            #expect(leg.date == "2026-11-21")
            #expect(leg.notes == "rent share")
            #expect(leg.tags == ["home"])
        }
    }
}

