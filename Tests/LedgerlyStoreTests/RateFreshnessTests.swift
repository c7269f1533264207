import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Staleness counted from a rate's last confirmation, configurable limits, overrides across a
/// pair and its inverse and how they end, base amounts filled in when rates arrive, provider
/// health, and what the store answers before setup. Time passes by moving the store's clock.
@Suite struct RateFreshnessTests {
    static func batch(_ rates: [(String, String, String)], asOf: String = "2026-10-30T15:00:00.000Z") -> RateBatchRequest {
        RateBatchRequest(profileId: 1, source: "ecb", rates: rates.map { RateInput(base: $0.0, quote: $0.1, rate: $0.2, asOf: asOf) })
    }

    static let ecb = batch([("EUR", "USD", "1.1172"), ("EUR", "JPY", "175.68")])

    @Test func aRateIsAsFreshAsItsLastConfirmation() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecb)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY")).warning == nil)

        try store.setClock(offsetSeconds: 2 * 3_600 + 60)
        let old = try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY"))
        #expect(old.result == "15725")  // still converts, with the last known rates…
        #expect(old.warning == "rate 2 h old")  // …and says how old they are
        #expect(old.snapshot.stale)
        #expect(try await store.call(RateListRequest()).rates.allSatisfy { $0.stale == true })

        // The feed delivers the same rates again: confirmed, not stored twice, fresh again.
        let again = try await store.call(Self.ecb)
        #expect(again == RateBatchReply(stored: 0, confirmed: 2, skipped: 0, backfilled: 0))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY")).warning == nil)
        let listed = try await store.call(RateListRequest()).rates
        #expect(listed.allSatisfy { $0.stale == false && $0.confirmedAt != nil })
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.count == 1)
    }

    @Test func theStalenessLimitsAreSettings() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecb)
        try store.setClock(offsetSeconds: 2 * 3_600)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "EUR")).warning != nil)
        let settings = try await store.call(SettingsUpdateRequest(staleFiatMinutes: 180))
        #expect(settings.staleFiatMinutes == 180)
        #expect(settings.staleCryptoMinutes == 15)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "EUR")).warning == nil)
        #expect(try await store.failure(SettingsUpdateRequest(staleCryptoMinutes: 0)).field == "body.staleCryptoMinutes")
    }

    @Test func anotherValueForTheSameMomentKeepsTheFirst() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecb)
        let changed = try await store.call(Self.batch([("EUR", "USD", "1.2"), ("EUR", "JPY", "175.68")]))
        #expect(changed == RateBatchReply(stored: 0, confirmed: 1, skipped: 1, backfilled: 0))
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.map(\.rate) == ["1.1172"])
    }

    @Test func anOverrideWinsInEitherDirectionUntilItIsEnded() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecb)
        // The user's own USD→EUR rate, as an override: it beats the feed's EUR→USD.
        _ = try await store.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.9", profileId: 1, customOverride: true))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD")).result == "111.11")  // 100 ÷ 0.9
        // A newer fetched rate does not end it.
        try store.setClock(offsetSeconds: 1_800)
        let newer = Timestamp.string(from: Date().addingTimeInterval(1_800))
        _ = try await store.call(Self.batch([("EUR", "USD", "1.1300")], asOf: newer))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD")).result == "111.11")
        #expect(try await store.call(RateListRequest()).rates.first { $0.base == "USD" }?.customOverride == true)

        try store.setClock(offsetSeconds: 3_600)
        let ended = try await store.call(RateOverrideEndRequest(base: "EUR", quote: "USD"))  // either direction names it
        #expect(ended.ended.map(\.rate) == ["0.9"])
        #expect(ended.ended.first?.overrideEndedAt != nil)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD")).result == "113.00")
        // At a moment while it was in force, it still applies: history does not change.
        let during = Timestamp.string(from: Date().addingTimeInterval(2_400))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: during)).result == "111.11")
        #expect(try await store.failure(RateOverrideEndRequest(base: "USD", quote: "EUR")).code == .notFound)
        #expect(try await store.call(RateListRequest()).rates.allSatisfy { !$0.customOverride })
    }

    @Test func ratesArrivingFillInPendingBaseAmountsTransfersTogether() async throws {
        let store = try await Store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD", startingBalance: "1000"))
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
        let lunch = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "20", date: "2026-11-02"))
        let moved = try await store.call(TransferCreateRequest(fromWalletId: dollars.id, toWalletId: yen.id, amount: "100", toAmount: "15000", date: "2026-11-02"))
        #expect(lunch.baseAmount == nil)
        #expect(moved.outgoing.baseAmount == nil && moved.incoming.baseAmount == nil)

        // Only USD known: the lunch is filled; the transfer waits for both legs.
        let usdOnly = try await store.send(Self.batch([("EUR", "USD", "1.1172")]))
        #expect(try await store.call(TransactionGetRequest(id: lunch.id)).baseAmount == "17.90")  // 20 ÷ 1.1172 = 17.901…
        #expect(try await store.call(TransactionGetRequest(id: moved.outgoing.id)).baseAmount == nil)
        #expect(usdOnly.events.filter { $0.type == "tx.updated" }.count == 1)

        let both = try await store.call(Self.batch([("EUR", "JPY", "175.68")]))
        #expect(both.backfilled == 2)
        #expect(try await store.call(TransactionGetRequest(id: moved.outgoing.id)).baseAmount == "89.51")  // 100 ÷ 1.1172
        #expect(try await store.call(TransactionGetRequest(id: moved.incoming.id)).baseAmount == "85.38")  // 15000 ÷ 175.68
        // A rate dated after a transaction's day does not fill it: that was not the rate then.
        let early = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "5", date: "2026-10-01"))
        #expect(early.baseAmount == nil)
        #expect(try await store.call(Self.batch([("EUR", "USD", "1.1")], asOf: "2026-10-31T15:00:00.000Z")).backfilled == 0)
    }

    @Test func providerHealthIsKeptWithTheLastSuccessAndTheBackoff() async throws {
        let store = try await Store()
        let ok = try await store.call(RateProviderReportRequest(
            name: "ecb", profile: "official", attemptedAt: "2026-11-21T10:00:00.000Z", error: nil, consecutiveFailures: 0,
            nextAttemptAt: "2026-11-21T11:00:00.000Z", stored: 30, confirmed: 0))
        #expect(ok.lastSuccessAt == "2026-11-21T10:00:00.000Z")
        let failing = try await store.send(RateProviderReportRequest(
            name: "ecb", profile: "official", attemptedAt: "2026-11-21T11:00:00.000Z", error: "HTTP 500 Internal Server Error",
            consecutiveFailures: 2, nextAttemptAt: "2026-11-21T11:01:00.000Z", stored: 0, confirmed: 0))
        #expect(failing.events.map(\.type) == ["rates.provider.status"])
        let listed = try await store.call(RateProviderListRequest()).providers
        #expect(listed.count == 1)
        #expect(listed[0].lastError == "HTTP 500 Internal Server Error")
        #expect(listed[0].consecutiveFailures == 2)
        #expect(listed[0].lastSuccessAt == "2026-11-21T10:00:00.000Z")  // kept through the failure
        #expect(listed[0].stored == 30)
        #expect(listed[0].nextAttemptAt == "2026-11-21T11:01:00.000Z")
        #expect(try await store.failure(RateProviderReportRequest(
            name: "ecb", profile: "official", attemptedAt: "2026-11-21T11:00:00.000Z", error: nil, consecutiveFailures: -1,
            nextAttemptAt: nil, stored: 0, confirmed: 0)).code == .validationFailed)
    }

    @Test func beforeSetupRatesCanArriveAndBePreviewedWithoutBeingKept() async throws {
        let store = try await Store(setUp: false)
        #expect(try await store.call(Self.ecb).stored == 2)
        let preview = try await store.call(ConvertRequest(amount: "100", from: "USD", to: "EUR", preview: true))
        #expect(preview.result == "89.51")
        #expect(preview.id == 0)
        #expect(try store.count("conversions") == 0)
        #expect(try await store.failure(WalletCreateRequest(name: "Card", currency: "EUR")).code == .setupRequired)
    }

    @Test func onlyAPairsNewestRateIsConfirmedAndAPastManualRateAgesFromItsMoment() async throws {
        let store = try await Store()
        _ = try await store.call(RateBatchRequest(profileId: 1, source: "ecb", rates: [
            RateInput(base: "EUR", quote: "USD", rate: "1.113", asOf: "2026-10-29T15:00:00.000Z"),
            RateInput(base: "EUR", quote: "USD", rate: "1.1172", asOf: "2026-10-30T15:00:00.000Z"),
        ]))
        let history = try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates
        #expect(history.map { $0.confirmedAt != nil } == [true, false])  // newest first
        let typedForThen = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1185.5", profileId: 2, asOf: "2026-11-01"))
        #expect(typedForThen.rate.confirmedAt == nil)
        #expect(try await store.call(RateListRequest(profileId: 2)).rates.first?.stale == true)
        let typedNow = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1190", profileId: 2))
        #expect(typedNow.rate.confirmedAt != nil)
        #expect(try await store.call(RateListRequest(profileId: 2)).rates.first?.stale == false)
    }

    @Test func aPersonsFileMayCorrectARateAFeedMayNot() async throws {
        let store = try await Store()
        let first = RateBatchRequest(profileId: 2, source: "dropfolder", rates: [RateInput(base: "USD", quote: "ARS", rate: "1158.5", asOf: "2026-11-20")], corrections: true)
        _ = try await store.call(first)
        var fixed = first
        fixed.rates[0].rate = "1185.5"
        #expect(try await store.call(fixed).stored == 1)
        #expect(try await store.call(RateHistoryRequest(base: "USD", quote: "ARS", profileId: 2)).rates.map(\.rate) == ["1185.5"])
    }

    @Test func theBackfillOnlyFollowsTheActiveProfileAndNeverFailsTheRatesWrite() async throws {
        let store = try await Store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let today = Timestamp.today()
        let lunch = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "0.01", date: today))
        // Into the parallel profile (not in use): nothing to fill.
        #expect(try await store.call(RateBatchRequest(profileId: 2, source: "dropfolder", rates: [RateInput(base: "EUR", quote: "USD", rate: "1.2", asOf: Timestamp.now())])).backfilled == 0)
        // A waiting amount that overflows with the arriving rate is skipped, not an error.
        let huge = try await store.call(TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: "9000000000000.00", date: today))
        let tiny = try await store.call(RateBatchRequest(profileId: 1, source: "ecb", rates: [RateInput(base: "EUR", quote: "USD", rate: "0.000000000001", asOf: Timestamp.now())]))
        #expect(tiny.stored == 1)
        #expect(try await store.call(TransactionGetRequest(id: huge.id)).baseAmount == nil)
        // Dated today, filled with the newest rate even though it is stamped after midnight UTC.
        // (0.01 USD at 10^12 EUR per USD; 20 USD would be 2 × 10^15 cents, beyond what an amount can be.)
        #expect(try await store.call(TransactionGetRequest(id: lunch.id)).baseAmount == "10000000000.00")
    }
}
