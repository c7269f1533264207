import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
@testable import LedgerlyStore
import Testing

/// A `tx.import` batch planned when it is decoded, while earlier requests are still being applied
/// (D370): the plan is used only while nothing it read can have changed, and a batch applied with
/// a plan gives what it would have given without one.
@Suite struct ImportPlanTests {
    /// A request frame as the store receives it.
    private func frame<Request: RequestBody>(_ body: Request) throws -> Data {
        try MessageCoding.encode(Envelope(type: Request.messageType.rawValue, body: body, key: Request.isWrite ? UUID().uuidString : nil))
    }

    private func reply<Reply: Codable & Sendable>(_ outcome: RouterOutcome, as type: Reply.Type) throws -> Reply {
        let header = try MessageCoding.decoder().decode(EnvelopeHeader.self, from: outcome.reply)
        if header.type == "error" { throw try MessageCoding.decoder().decode(Envelope<ErrorBody>.self, from: outcome.reply).body }
        return try MessageCoding.decoder().decode(Envelope<Reply>.self, from: outcome.reply).body
    }

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
        let decoded = store.router.prepare(try frame(batch))
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.0903", asOf: "2026-03-10T15:00:00Z"))
        // Applied after the rate: the write converts with it, as a transaction created now does.
        let imported = try reply(decoded(), as: TransactionImportReply.self)
        let recorded = try await store.call(TransactionGetRequest(id: try #require(imported.firstId)))
        let created = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "12.34", date: "2026-03-10"))
        #expect(created.baseAmount == "11.32")
        #expect(recorded.baseAmount == created.baseAmount)
        #expect(recorded.baseConversion == created.baseConversion)
    }

    @Test func aWalletArchivedAfterTheBatchWasDecodedRefusesIt() async throws {
        let store = try await Store()
        let cash = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR"))
        let batch = TransactionImportRequest(importId: "archived", items: [
            TransactionImportItem(line: 2, transaction: TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "5", date: "2026-03-10")),
        ])
        let decoded = store.router.prepare(try frame(batch))
        _ = try await store.call(WalletArchiveRequest(id: cash.id))
        do {
            _ = try reply(decoded(), as: TransactionImportReply.self)
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
        // …any other write retires it, whatever it changed, and so does a failed one.
        _ = try await store.failure(CategoryCreateRequest(name: "", kind: .expense))
        #expect(!plan.isCurrent(at: Date()))
        let next = try #require(ImportPlan.make(batch("third"), environment(store)))
        _ = try await store.call(CategoryCreateRequest(name: "Travel", kind: .expense))
        #expect(!next.isCurrent(at: Date()))
        // A plan is for the day it was made on.
        let later = try #require(ImportPlan.make(batch("fourth"), environment(store)))
        #expect(!later.isCurrent(at: Date().addingTimeInterval(86_400)))
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
