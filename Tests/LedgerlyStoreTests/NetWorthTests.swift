import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Net worth against a real database, by the rules of docs/networth.md: every figure below is
/// computed by hand in the comments.
@Suite struct NetWorthTests {
    /// Today is 2026-11-15. EUR base; EUR→USD 1.10 from 2026-01-01 and 1.25 from 2026-03-01.
    /// Checking (EUR): +3000 on 2026-01-05. Dollars (USD): +500 on 2026-02-01.
    /// House (tangible): 300000 on 2026-01-01, 310000 from 2026-03-15.
    /// Coins (intangible, volatile): 5000 on 2026-01-01.
    /// Mortgage: 200000 on 2026-01-01, 1000 paid from Checking on 2026-02-01.
    struct Ledger {
        let store: Store
        let checking: WalletRecord
        let house: ManualAssetRecord
        let mortgage: LiabilityRecord
        let payment: LiabilityPaymentReply
    }

    static func ledger() async throws -> Ledger {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.10", asOf: "2026-01-01"))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.25", asOf: "2026-03-01"))
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "3000", date: "2026-01-05"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: "500", date: "2026-02-01"))
        var house = try await store.call(ManualAssetCreateRequest(name: "House", value: "300000", valuedOn: "2026-01-01"))
        house = try await store.call(ManualAssetRevalueRequest(id: house.id, value: "310000", date: "2026-03-15", notes: "appraisal"))
        _ = try await store.call(ManualAssetCreateRequest(name: "Coins", assetType: .intangible, value: "5000", valuedOn: "2026-01-01", volatile: true))
        let mortgage = try await store.call(LiabilityCreateRequest(name: "Mortgage", liabilityType: .mortgage, balance: "200000", balanceOn: "2026-01-01", interestRate: "3.25"))
        let payment = try await store.call(LiabilityPayRequest(id: mortgage.id, walletId: checking.id, amount: "1000", date: "2026-02-01"))
        return Ledger(store: store, checking: checking, house: house, mortgage: mortgage, payment: payment)
    }

    @Test func valuationsAndPaymentsAreKeptAsDatedHistory() async throws {
        let ledger = try await Self.ledger()
        #expect(ledger.house.value == "310000.00" && ledger.house.valuedOn == "2026-03-15")
        #expect(ledger.house.valuations?.map(\.value) == ["300000.00", "310000.00"])
        #expect(ledger.house.includeInTangible && ledger.house.includeInCore && !ledger.house.volatile)
        let mortgage = ledger.payment.liability
        #expect(mortgage.balance == "199000.00")
        #expect(mortgage.history?.map(\.balanceAfter) == ["200000.00", "199000.00"])
        #expect(mortgage.history?.last?.transactionId == ledger.payment.transaction.id)
        #expect(ledger.payment.transaction.kind == .expense && ledger.payment.transaction.amount == "1000.00")
        let checking = try await ledger.store.call(WalletGetRequest(id: ledger.checking.id))
        #expect(checking.balance == "2000.00")
    }

    @Test func netWorthAtTheEndOfADayByHand() async throws {
        let store = try await Self.ledger().store
        let february = try await store.call(NetWorthRequest(at: "2026-02-28"))
        // 2000 + 500 USD / 1.10 = 454.545… → 454.55, + 300000 + 5000 − 199000.
        #expect(february.figures == NetWorthFigures(totalAssets: "307454.55", totalLiabilities: "199000.00", netWorth: "108454.55",
                                                     core: "103454.55", tangible: "103454.55", volatile: "5000.00"))
        #expect(february.complete && february.asOf == "2026-02-28T23:59:59.999Z")
        let dollars = try #require(february.items.first { $0.name == "Dollars" })
        #expect(dollars.amount == "500.00" && dollars.baseValue == "454.55" && dollars.currency == "USD")
        let mortgage = try #require(february.items.first { $0.kind == .liability })
        #expect(mortgage.baseValue == "-199000.00" && mortgage.corePart == "-199000.00")
        // March: 500 / 1.25 = 400, the house at 310000.
        let march = try await store.call(NetWorthRequest(at: "2026-03-31"))
        #expect(march.figures.netWorth == "118400.00" && march.figures.core == "113400.00" && march.figures.volatile == "5000.00")
        // Mid-January: Checking 3000, no Dollars yet (no transaction, created later), the
        // mortgage unpaid: 3000 + 300000 + 5000 − 200000.
        let january = try await store.call(NetWorthRequest(at: "2026-01-20"))
        #expect(january.figures.netWorth == "108000.00" && !january.items.contains { $0.name == "Dollars" })
        // Before anything existed: nothing.
        let before = try await store.call(NetWorthRequest(at: "2025-12-31"))
        #expect(before.items.isEmpty && before.figures.netWorth == "0.00")
    }

    @Test func aPaymentIsNoSpendingAndMovesOnlyWithItsLiability() async throws {
        let ledger = try await Self.ledger()
        let report = try await ledger.store.call(CashFlowReportRequest(from: "2026-02", to: "2026-02"))
        #expect(report.months.first?.expenses ?? "0.00" == "0.00")
        let refusal = try await ledger.store.failure(TransactionDeleteRequest(id: ledger.payment.transaction.id))
        #expect(refusal.code == .conflict && refusal.message.contains("payment of liability"))
        let overpaid = try await ledger.store.failure(LiabilityPayRequest(id: ledger.mortgage.id, walletId: ledger.checking.id, amount: "199000.01", date: "2026-03-01"))
        #expect(overpaid.code == .conflict && overpaid.field == "body.amount")
        // A balance set before the payment that is smaller than it leaves the payment paying too much.
        let backdated = try await ledger.store.failure(LiabilityRevalueRequest(id: ledger.mortgage.id, balance: "500", date: "2026-01-15"))
        #expect(backdated.code == .conflict && backdated.field == "body.balance")
    }

    @Test func badInputIsRefusedNamingTheField() async throws {
        let ledger = try await Self.ledger()
        let store = ledger.store
        #expect(try await store.failure(ManualAssetCreateRequest(name: "Car", value: "-1")).field == "body.value")
        #expect(try await store.failure(ManualAssetRevalueRequest(id: ledger.house.id, value: "1", date: "2026-11-16")).field == "body.date")
        #expect(try await store.failure(ManualAssetCreateRequest(name: "house", value: "1")).code == .conflict)
        #expect(try await store.failure(LiabilityCreateRequest(name: "Loan", balance: "10", interestRate: "3,5")).field == "body.interestRate")
        #expect(try await store.failure(NetWorthRequest(at: "2026-02-30")).field == "body.at")
        #expect(try await store.failure(NetWorthSnapshotTakeRequest(month: "2026-11")).field == "body.month")
        #expect(try await store.failure(NetWorthSnapshotTakeRequest(month: "2026-13")).field == "body.month")
    }

    @Test func aSnapshotIsTakenOnceAndNeverChanges() async throws {
        let store = try await Self.ledger().store
        let taken = try await store.call(NetWorthSnapshotTakeRequest(month: "2026-02"))
        #expect(taken.created && taken.snapshot.figures.netWorth == "108454.55" && taken.snapshot.date == "2026-02-28")
        let again = try await store.call(NetWorthSnapshotTakeRequest(month: "2026-02"), key: "another-key")
        #expect(!again.created && again.snapshot == taken.snapshot)
        // A rate recorded later for February changes what February computes to, not the snapshot.
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.00", asOf: "2026-02-15"))
        let list = try await store.call(NetWorthSnapshotListRequest(recompute: true))
        let february = try #require(list.snapshots.first)
        #expect(february.figures.netWorth == "108454.55")
        #expect(february.recomputed?.netWorth == "108500.00" && february.differs == true)
        // Ended months from the first of history (2026-01) to October, less the one taken.
        #expect(list.missing == ["2026-01"] + (3...10).map { String(format: "2026-%02d", $0) })
        #expect(try await store.call(NetWorthSnapshotListRequest(from: "2026-03", to: "2026-04")).missing == ["2026-03", "2026-04"])
    }

    /// Holdings count at their units on the day (a split after it not yet applied) and the
    /// latest price at or before its end; a speculative group's holdings are volatile, not core.
    @Test func holdingsAtAPastDayWithSpeculativeGroups() async throws {
        let store = try await Self.ledger().store
        let account = try await store.call(InvestAccountCreateRequest(name: "Broker"))
        let coin = try await store.call(AssetCreateRequest(symbol: "BTC", assetType: .crypto, quoteCurrency: "EUR", allocationGroup: "speculative"))
        let stock = try await store.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD", allocationGroup: "core"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: coin.id, quantity: "2", price: "1000", date: "2026-01-10"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: stock.id, quantity: "10", price: "90", date: "2026-01-10", rate: "0.9"))
        _ = try await store.call(TradeSplitRequest(assetId: coin.id, ratio: "2:1", date: "2026-03-05"))
        _ = try await store.call(PriceRecordRequest(snapshots: [
            PriceSnapshotInput(assetId: coin.id, price: "1500", currency: "EUR", source: "manual", asOf: "2026-02-27T00:00:00Z", confidence: .manual),
            PriceSnapshotInput(assetId: coin.id, price: "800", currency: "EUR", source: "manual", asOf: "2026-03-31T00:00:00Z", confidence: .manual),
            PriceSnapshotInput(assetId: stock.id, price: "100", currency: "USD", source: "manual", asOf: "2026-02-27T00:00:00Z", confidence: .manual),
        ]))
        // February: BTC 2 × 1500 = 3000 (speculative); ACME 10 × 100 USD = 1000 USD / 1.10 = 909.09.
        let february = try await store.call(NetWorthRequest(at: "2026-02-28"))
        let broker = try #require(february.items.first { $0.kind == .investmentAccount })
        #expect(broker.baseValue == "3909.09" && broker.volatilePart == "3000.00" && broker.corePart == "909.09" && broker.tangiblePart == "0.00")
        #expect(february.figures.netWorth == "112363.64" && february.figures.volatile == "8000.00" && february.figures.core == "104363.64")
        #expect(february.complete)
        // March: 4 BTC after the split × 800 = 3200; ACME 1000 USD / 1.25 = 800, its price a month old: said.
        let march = try await store.call(NetWorthRequest(at: "2026-03-31"))
        let marchBroker = try #require(march.items.first { $0.kind == .investmentAccount })
        #expect(marchBroker.baseValue == "4000.00" && marchBroker.volatilePart == "3200.00")
        #expect(marchBroker.warnings.contains { $0.contains("ACME") })
        // No speculative groups: all of it is core.
        _ = try await store.call(SettingsUpdateRequest(speculativeGroups: []))
        let plain = try await store.call(NetWorthRequest(at: "2026-03-31"))
        #expect(plain.figures.volatile == "5000.00" && plain.figures.core == "\(113400 + 4000).00")
        // Before the first price: the holdings are not valued, and the report says it is incomplete.
        let january = try await store.call(NetWorthRequest(at: "2026-01-31"))
        #expect(!january.complete && january.warnings.contains { $0.contains("BTC has no price") })
    }
}
