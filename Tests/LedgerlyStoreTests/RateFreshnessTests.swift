import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Staleness counted from a rate's own moment (D401), corrections kept (D402), configurable limits, overrides across a
/// pair and its inverse and how they end, base amounts filled in when rates arrive, provider
/// health, and what the store answers before setup. Time passes by moving the store's clock.
@Suite struct RateFreshnessTests {
    static func batch(_ rates: [(String, String, String)], asOf: String = "2026-10-30T15:00:00.000Z") -> RateBatchRequest {
        RateBatchRequest(profileId: 1, source: "ecb", rates: rates.map { RateInput(base: $0.0, quote: $0.1, rate: $0.2, asOf: asOf) })
    }

    static let ecb = batch([("EUR", "USD", "1.1172"), ("EUR", "JPY", "175.68")])

    /// A batch dated now, as a feed serving today's document delivers it.
    static func current() -> RateBatchRequest {
        batch([("EUR", "USD", "1.1172"), ("EUR", "JPY", "175.68")], asOf: Timestamp.now())
    }

    @Test func aRateAgesFromItsOwnMomentEvenWhenItsFeedConfirmsIt() async throws {
        let store = try await Store()
        let current = Self.current()
        _ = try await store.call(current)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY")).warning == nil)

        try store.setClock(offsetSeconds: 2 * 3_600 + 60)
        let old = try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY"))
        #expect(old.result == "15725")  // still converts, with the last known rates…
        #expect(old.warning == "rate 2 h old")  // …and says how old they are
        #expect(old.snapshot.stale)
        #expect(try await store.call(RateListRequest()).rates.allSatisfy { $0.stale == true })

        // The feed delivers the same rates again: confirmed, not stored twice, and still as old
        // as their moment — a stuck feed does not make its rates look fresh (D401).
        let again = try await store.call(current)
        #expect(again == RateBatchReply(stored: 0, confirmed: 2, skipped: 0, backfilled: 0))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY")).warning == "rate 2 h old")
        let listed = try await store.call(RateListRequest()).rates
        #expect(listed.allSatisfy { $0.stale == true && $0.confirmedAt != nil && ($0.ageSeconds ?? 0) >= 2 * 3_600 })
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.count == 1)
    }

    @Test func aDocumentDatedTenDaysAgoIsStaleTheMomentItIsFetched() async throws {
        let store = try await Store()
        let tenDaysAgo = Timestamp.string(from: Date().addingTimeInterval(-10 * 86_400))
        _ = try await store.call(Self.batch([("EUR", "USD", "1.1172")], asOf: tenDaysAgo))
        let listed = try #require(try await store.call(RateListRequest()).rates.first)
        #expect(listed.stale == true)
        #expect((listed.ageSeconds ?? 0) >= 10 * 86_400)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD")).warning == "rate 10 d old")
        // A drop-folder rate dated a day is as old as that day's start, whenever it was dropped.
        _ = try await store.call(RateBatchRequest(profileId: 2, source: "dropfolder", rates: [RateInput(base: "USD", quote: "ARS", rate: "1185.5", asOf: "2026-11-20")]))
        let dropped = try #require(try await store.call(RateListRequest(profileId: 2)).rates.first)
        #expect(dropped.stale == true)
        let sinceThatDay = Int64(Date().timeIntervalSince(try #require(Timestamp.parse("2026-11-20T00:00:00.000Z"))))
        #expect(abs((dropped.ageSeconds ?? 0) - sinceThatDay) <= 5)
    }

    @Test func correctionsGoOutAndComeBackInOrder() async throws {
        let source = try await Store()
        _ = try await source.call(Self.ecb)
        _ = try await source.call(Self.batch([("EUR", "USD", "1.2")]))
        let history = try await source.call(RateExportRequest()).rates
        #expect(history.map(\.rate) == ["1.1172", "175.68", "1.2"])

        let copy = try await Store()
        #expect(try await copy.call(RateRestoreRequest(rates: history)) == RateRestoreReply(stored: 3, skipped: 0))
        #expect(try await copy.call(RateRestoreRequest(rates: history)) == RateRestoreReply(stored: 0, skipped: 3))
        #expect(try await copy.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.map(\.rate) == ["1.2", "1.1172"])
    }

    @Test func theStalenessLimitsAreSettings() async throws {
        let store = try await Store()
        _ = try await store.call(Self.current())
        try store.setClock(offsetSeconds: 2 * 3_600)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "EUR")).warning != nil)
        let settings = try await store.call(SettingsUpdateRequest(staleFiatMinutes: 180))
        #expect(settings.staleFiatMinutes == 180)
        #expect(settings.staleCryptoMinutes == 15)
        #expect(try await store.call(ConvertRequest(amount: "100", from: "USD", to: "EUR")).warning == nil)
        #expect(try await store.failure(SettingsUpdateRequest(staleCryptoMinutes: 0)).field == "body.staleCryptoMinutes")
    }

    /// A correction back to an earlier value (1.1172, 1.2, 1.1172 again) goes out and comes back
    /// whole: every row kept, the same rate in force, and restoring twice still stores nothing
    /// twice (D470).
    @Test func aCorrectionBackToAnEarlierValueSurvivesExportAndRestore() async throws {
        let source = try await Store()
        _ = try await source.call(Self.batch([("EUR", "USD", "1.1172")]))
        _ = try await source.call(Self.batch([("EUR", "USD", "1.2")]))
        _ = try await source.call(Self.batch([("EUR", "USD", "1.1172")]))
        let history = try await source.call(RateExportRequest()).rates
        #expect(history.map(\.revision) == [0, 1, 2])

        let copy = try await Store()
        #expect(try await copy.call(RateRestoreRequest(rates: history)) == RateRestoreReply(stored: 3, skipped: 0))
        #expect(try await copy.call(RateRestoreRequest(rates: history)) == RateRestoreReply(stored: 0, skipped: 3))
        #expect(try await copy.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.map(\.rate) == ["1.1172", "1.2", "1.1172"])
        #expect(try await copy.call(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: "2026-10-31")).result == "111.72")
    }

    /// The 50 % warning compares with the rate in force: of two rates for one moment, the newer.
    @Test func theJumpWarningComparesWithTheNewerOfTwoRatesForOneMoment() async throws {
        let store = try await Store()
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "3", profileId: 1, asOf: "2026-10-30T15:00:00.000Z"))
        _ = try await store.call(Self.batch([("EUR", "USD", "1.1172")]))
        let next = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.2", profileId: 1, asOf: "2026-10-31T15:00:00.000Z"))
        #expect(next.warning == nil)  // 1.2 is near 1.1172, in force; far from the older 3
    }

    @Test func aSameDayCorrectionIsKeptBesideTheFirstAndIsInForce() async throws {
        let store = try await Store()
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        _ = try await store.call(Self.ecb)
        // Converted with the first value: the transaction keeps it.
        let lunch = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "100", date: "2026-10-30"))
        #expect(lunch.baseAmount == "89.51")  // 100 ÷ 1.1172
        let changed = try await store.call(Self.batch([("EUR", "USD", "1.2"), ("EUR", "JPY", "175.68")]))
        #expect(changed == RateBatchReply(stored: 0, confirmed: 1, skipped: 0, backfilled: 0, corrected: 1))
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.map(\.rate) == ["1.2", "1.1172"])  // newest first
        #expect(try await store.call(ConvertRequest(amount: "120", from: "USD", to: "EUR", at: "2026-10-30")).result == "100.00")
        #expect(try await store.call(TransactionGetRequest(id: lunch.id)).baseAmount == "89.51")
        // The same correction again is confirmed, not stored twice; going back to the first value
        // is another correction (the feed said so), kept in order.
        #expect(try await store.call(Self.batch([("EUR", "USD", "1.2")])) == RateBatchReply(stored: 0, confirmed: 1, skipped: 0, backfilled: 0))
        #expect(try await store.call(Self.batch([("EUR", "USD", "1.1172")])).corrected == 1)
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.map(\.rate) == ["1.1172", "1.2", "1.1172"])
        #expect(try await store.call(RateListRequest()).rates.first { $0.quote == "USD" }?.rate == "1.1172")
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

    @Test func aPersonsFileCorrectsARateAsAFeedDoesKeepingTheFirst() async throws {
        let store = try await Store()
        let first = RateBatchRequest(profileId: 2, source: "dropfolder", rates: [RateInput(base: "USD", quote: "ARS", rate: "1158.5", asOf: "2026-11-20")], corrections: true)
        _ = try await store.call(first)
        var fixed = first
        fixed.rates[0].rate = "1185.5"
        #expect(try await store.call(fixed).corrected == 1)
        #expect(try await store.call(RateHistoryRequest(base: "USD", quote: "ARS", profileId: 2)).rates.map(\.rate) == ["1185.5", "1158.5"])
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
