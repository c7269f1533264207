import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// `networth.restore` against a real database: what `NetWorthTests.ledger()` holds, read as an
/// export reads it, comes back in a ledger whose transactions were restored first, the same to
/// the byte; and what does not fit is refused, naming the field.
@Suite struct NetWorthRestoreTests {
    static func exported(_ store: Store) async throws -> NetWorthRestore {
        var assets: [ManualAssetRecord] = []
        for asset in try await store.call(ManualAssetListRequest(includeArchived: true)).assets { assets.append(try await store.call(ManualAssetGetRequest(id: asset.id))) }
        var liabilities: [LiabilityRecord] = []
        for liability in try await store.call(LiabilityListRequest(includeArchived: true)).liabilities {
            liabilities.append(try await store.call(LiabilityGetRequest(id: liability.id)))
        }
        return NetWorthRestore(assets: assets, liabilities: liabilities, snapshots: try await store.call(NetWorthSnapshotListRequest(includeItems: true)).snapshots)
    }

    /// The same wallets, rates and transactions under the same ids, the payment a plain expense
    /// (as `tx.import` restores it), and the same clock.
    static func emptyCopy() async throws -> Store {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.10", asOf: "2026-01-01"))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.25", asOf: "2026-03-01"))
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "3000", date: "2026-01-05"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: "500", date: "2026-02-01"))
        _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: "1000", notes: "Payment: Mortgage", date: "2026-02-01"))
        return store
    }

    @Test func aRestoreGivesBackTheSameAssetsLiabilitiesAndSnapshots() async throws {
        let ledger = try await NetWorthTests.ledger()
        _ = try await ledger.store.call(NetWorthSnapshotTakeRequest(month: "2026-02"))
        _ = try await ledger.store.call(NetWorthSnapshotTakeRequest(month: "2026-03"))
        let export = try await Self.exported(ledger.store)
        #expect(export.assets.count == 2 && export.liabilities.count == 1 && export.snapshots.count == 2)

        let copy = try await Self.emptyCopy()
        #expect(try await copy.call(CashFlowReportRequest(from: "2026-02", to: "2026-02")).months.first?.expenses == "1000.00")
        let reply = try await copy.call(NetWorthRestoreRequest(netWorth: export))
        #expect(reply == NetWorthRestoreReply(assets: 2, liabilities: 1, snapshots: 2))
        #expect(try await Self.exported(copy) == export)
        #expect(try await copy.call(NetWorthSnapshotListRequest(includeItems: true)) == (try await ledger.store.call(NetWorthSnapshotListRequest(includeItems: true))))
        #expect(try await copy.call(NetWorthRequest(at: "2026-02-28")) == (try await ledger.store.call(NetWorthRequest(at: "2026-02-28"))))
        // The payment is a payment again: no spending, and it moves only with its liability.
        #expect(try await copy.call(CashFlowReportRequest(from: "2026-02", to: "2026-02")) == (try await ledger.store.call(CashFlowReportRequest(from: "2026-02", to: "2026-02"))))
        let refusal = try await copy.failure(TransactionDeleteRequest(id: ledger.payment.transaction.id))
        #expect(refusal.code == .conflict && refusal.message.contains("payment of liability"))
        // Only into a ledger without any.
        let again = try await copy.failure(NetWorthRestoreRequest(netWorth: NetWorthRestore(assets: [], liabilities: [], snapshots: export.snapshots)))
        #expect(again.code == .conflict)
    }

    @Test func whatDoesNotFitIsRefusedAndNothingIsWritten() async throws {
        let ledger = try await NetWorthTests.ledger()
        let export = try await Self.exported(ledger.store)
        let copy = try await Self.emptyCopy()
        var mortgage = try #require(export.liabilities.first)
        let paymentIndex = try #require(mortgage.history?.firstIndex { $0.kind == .payment })

        // A payment naming a transaction the ledger does not have, or one that is not the wallet's expense.
        mortgage.history?[paymentIndex].transactionId = 99
        var missing = export
        missing.liabilities = [mortgage]
        let unknown = try await copy.failure(NetWorthRestoreRequest(netWorth: missing))
        #expect(unknown.code == .validationFailed && unknown.field == "body.netWorth.liabilities[0].history[\(paymentIndex)].transactionId")
        mortgage.history?[paymentIndex].transactionId = 1  // Checking's income
        missing.liabilities = [mortgage]
        let income = try await copy.failure(NetWorthRestoreRequest(netWorth: missing))
        #expect(income.field == "body.netWorth.liabilities[0].history[\(paymentIndex)].transactionId")

        // A payment of more than was owed.
        var history = try #require(export.liabilities.first?.history)
        history[paymentIndex].amount = "200000.01"
        var overpaid = export
        overpaid.liabilities[0].history = history
        let below = try await copy.failure(NetWorthRestoreRequest(netWorth: overpaid))
        #expect(below.code == .validationFailed && below.field == "body.netWorth.liabilities[0].history[\(paymentIndex)].amount")

        // Each refusal wrote nothing: the restore still goes through.
        #expect(try await copy.call(NetWorthRestoreRequest(netWorth: export)).liabilities == 1)
    }

    /// Two entries of one day whose ids run against the order they were recorded in (as sync
    /// leaves them: a synced entry keeps its `createdAt`, not its id): the restore checks the
    /// balances in the order the live history keeps (day, time recorded, id), so a history that
    /// never dips below zero there is restored, not refused (D551).
    @Test func sameDayEntriesAreCheckedInTheOrderTheyWereRecorded() async throws {
        let copy = try await Self.emptyCopy()
        func entry(_ id: Int64, _ kind: LiabilityEntryKind, _ amount: String, on date: String, recorded: String) -> LiabilityEntryRecord {
            LiabilityEntryRecord(id: id, date: date, kind: kind, amount: amount, balanceAfter: "0.00", walletId: kind == .payment ? 1 : nil,
                                 transactionId: kind == .payment ? 3 : nil, notes: nil, createdAt: recorded)
        }
        // By day, then id, the payment (id 2) would come before the new balance (id 3) and leave
        // 500 - 1000 owed; recorded, the balance of 5000 came first.
        let loan = LiabilityRecord(
            id: 1, name: "Car loan", liabilityType: .loan, currency: "EUR", balance: "4000.00", balanceOn: "2026-02-01", interestRate: nil, dueDate: nil, notes: nil,
            archived: false, createdAt: "2026-01-10T08:00:00Z", updatedAt: "2026-02-01T18:00:00Z",
            history: [entry(1, .balance, "500.00", on: "2026-01-10", recorded: "2026-01-10T08:00:00Z"),
                      entry(2, .payment, "1000.00", on: "2026-02-01", recorded: "2026-02-01T18:00:00Z"),
                      entry(3, .balance, "5000.00", on: "2026-02-01", recorded: "2026-02-01T09:00:00Z")])
        let reply = try await copy.call(NetWorthRestoreRequest(netWorth: NetWorthRestore(assets: [], liabilities: [loan], snapshots: [])))
        #expect(reply.liabilities == 1)
        let restored = try await copy.call(LiabilityGetRequest(id: 1))
        #expect(restored.balance == "4000.00")
        #expect(restored.history?.map(\.id) == [1, 3, 2])
        #expect(restored.history?.map(\.balanceAfter) == ["500.00", "5000.00", "4000.00"])
    }

    /// A month the alerts service took while the restore was under way is of a half-restored
    /// ledger: `networth.restore` drops it, and the month is missing again (D219).
    @Test func aSnapshotTakenDuringTheRestoreIsDropped() async throws {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        _ = try await store.call(LedgerRestoreBeginRequest(wallets: [], categories: [], tags: [], rateProfiles: [], alerts: [], conversions: []))
        let wallet = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: "10", date: "2026-09-05"))
        #expect(try await store.call(NetWorthSnapshotTakeRequest(month: "2026-09")).created)
        let reply = try await store.call(NetWorthRestoreRequest(netWorth: NetWorthRestore(assets: [], liabilities: [], snapshots: [])))
        #expect(reply.snapshots == 0)
        let list = try await store.call(NetWorthSnapshotListRequest())
        #expect(list.snapshots.isEmpty && list.missing.first == "2026-09")
    }
}
