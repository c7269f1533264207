import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// PROTOCOL.md §20's worked example is what the store answers: the ledger of
/// `protocol/examples/asset.*`, `liability.*` and `networth.*` built through the store, and its
/// `networth.get` and `networth.snapshot.list` replies compared with the example files, so a
/// figure computed by the document's rules is the store's figure.
@Suite struct NetWorthExampleTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/examples")

    static func example<Reply: Codable & Sendable>(_ name: String, as: Reply.Type) throws -> Reply {
        try MessageCoding.decoder().decode(Envelope<Reply>.self, from: Data(contentsOf: examples.appendingPathComponent(name))).body
    }

    @Test func theWorkedExampleIsWhatTheStoreAnswers() async throws {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-21T12:00:00Z")!.timeIntervalSinceNow))
        let checking = try await store.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        let dollars = try await store.call(WalletCreateRequest(name: "US Dollars", currency: "USD"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "8450", date: "2026-09-01"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: "1234.56", date: "2026-09-01"))
        // §14's trades: 7 ACME left after the sale.
        let account = try await store.call(InvestAccountCreateRequest(name: "Interactive Brokers"))
        let acme = try await store.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD", allocationGroup: "core"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: acme.id, quantity: "10", price: "100", fee: "1", date: "2026-03-02", rate: "0.90"))
        _ = try await store.call(TradeBuyRequest(accountId: account.id, assetId: acme.id, quantity: "5", price: "120", fee: "1", date: "2026-04-02", rate: "0.95"))
        _ = try await store.call(TradeSellRequest(accountId: account.id, assetId: acme.id, quantity: "8", price: "130", fee: "1", date: "2026-05-04", rate: "0.92"))
        _ = try await store.call(PriceSetRequest(assetId: acme.id, price: "130", asOf: "2026-09-30T15:00:00Z"))
        _ = try await store.call(PriceSetRequest(assetId: acme.id, price: "135.5", asOf: "2026-10-30T15:00:00Z"))
        let flat = try await store.call(ManualAssetCreateRequest(name: "Flat in Lisbon", value: "310000.00", valuedOn: "2024-06-30", notes: "Rua das Flores 12"))
        _ = try await store.call(ManualAssetRevalueRequest(id: flat.id, value: "325000.00", date: "2026-06-30", notes: "Bank valuation"))
        _ = try await store.call(ManualAssetCreateRequest(name: "Watch collection", value: "12000.00", currency: "CHF", valuedOn: "2026-01-15", volatile: true))
        let car = try await store.call(ManualAssetCreateRequest(name: "Old car", value: "4500.00", valuedOn: "2026-03-01"))
        _ = try await store.call(ManualAssetRevalueRequest(id: car.id, value: "0", date: "2026-09-12", notes: "Sold"))
        _ = try await store.call(ManualAssetArchiveRequest(id: car.id))
        let mortgage = try await store.call(LiabilityCreateRequest(name: "Mortgage", liabilityType: .mortgage, balance: "250000.00", balanceOn: "2024-06-30"))
        let loan = try await store.call(LiabilityCreateRequest(name: "Car loan", balance: "3000.00", balanceOn: "2026-03-01"))
        _ = try await store.call(LiabilityPayRequest(id: loan.id, walletId: checking.id, amount: "3000.00", date: "2026-09-12"))
        _ = try await store.call(LiabilityArchiveRequest(id: loan.id))
        _ = try await store.call(LiabilityRevalueRequest(id: mortgage.id, balance: "236512.40", date: "2026-09-30"))
        _ = try await store.call(LiabilityPayRequest(id: mortgage.id, walletId: checking.id, amount: "1200.00", date: "2026-10-01"))
        _ = try await store.call(RateSetRequest(base: "CHF", quote: "EUR", rate: "1.06", asOf: "2026-09-30T15:00:00Z"))
        _ = try await store.call(RateSetRequest(base: "CHF", quote: "EUR", rate: "1.07", asOf: "2026-10-30T15:00:00Z"))
        // September is taken before any dollar rate is known.
        _ = try await store.call(NetWorthSnapshotTakeRequest(month: "2026-09"))
        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.91", asOf: "2026-09-30T15:00:00Z"))
        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.92", asOf: "2026-10-30T15:00:00Z"))
        let october = try await store.call(NetWorthSnapshotTakeRequest(month: "2026-10"))

        #expect(try await store.call(NetWorthRequest(at: "2026-10-31")) == (try Self.example("networth.get.ok.json", as: NetWorthReport.self)))
        var taken = try Self.example("networth.snapshot.take.ok.json", as: NetWorthSnapshotTakeReply.self)
        taken.snapshot.takenAt = october.snapshot.takenAt
        #expect(october == taken)
        var listed = try Self.example("networth.snapshot.list.ok.json", as: NetWorthSnapshotListReply.self)
        let reply = try await store.call(NetWorthSnapshotListRequest(from: "2026-09", to: "2026-10", recompute: true))
        for index in listed.snapshots.indices where index < reply.snapshots.count { listed.snapshots[index].takenAt = reply.snapshots[index].takenAt }
        #expect(reply == listed)
    }
}
