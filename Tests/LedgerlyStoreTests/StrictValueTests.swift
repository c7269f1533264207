import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Times, rates, amounts and currencies in requests are checked by one rule each, and errors name
/// the field at fault (docs/decisions.md D87–D91).
@Suite struct StrictValueTests {
    static let impossibleTimes = [
        "2026-02-30", "2026-02-30T12:00:00Z", "2026-10-30T25:00:00Z", "2026-10-30T24:00:00Z", "2026-10-30T10:61:00Z",
        "2026-10-30T23:59:60Z", "2026-10-30T12:00:00Z\u{0}", "2026-10-30T12:00:00z", "2026-10-30 12:00:00Z", "2026-10-30T12:00:00",
    ]

    // MARK: Defect 1: impossible times are refused, each naming its own field

    @Test(arguments: impossibleTimes)
    func rateTimesAreReadStrictly(time: String) async throws {
        let store = try await Store()
        let set = try await store.failure(RateSetRequest(base: "EUR", quote: "USD", rate: "1.1", profileId: 1, asOf: time))
        #expect(set.code == .validationFailed)
        #expect(set.field == "body.asOf")
        let batch = try await store.failure(RateBatchRequest(profileId: 1, source: "ecb", rates: [
            RateInput(base: "EUR", quote: "USD", rate: "1.1", asOf: "2026-10-30"), RateInput(base: "EUR", quote: "JPY", rate: "175", asOf: time),
        ]))
        #expect(batch.field == "body.rates[1].asOf")
        #expect(try store.count("rates") == 0)
        let report = try await store.failure(RateProviderReportRequest(name: "ecb", profile: "official", attemptedAt: time, error: nil,
                                                                       consecutiveFailures: 0, nextAttemptAt: nil, stored: 0, confirmed: 0))
        #expect(report.field == "body.attemptedAt")
        let next = try await store.failure(RateProviderReportRequest(name: "ecb", profile: "official", attemptedAt: "2026-10-30T12:00:00Z", error: nil,
                                                                     consecutiveFailures: 0, nextAttemptAt: time, stored: 0, confirmed: 0))
        #expect(next.field == "body.nextAttemptAt")
    }

    @Test(arguments: impossibleTimes)
    func convertAndAlertTimesAreReadStrictly(time: String) async throws {
        let store = try await Store()
        _ = try await store.call(RateRouterTests.ecbBatch())
        let convert = try await store.failure(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: time))
        #expect(convert.code == .validationFailed)
        #expect(convert.field == "body.at")
        let alerts = try await store.failure(AlertListRequest(since: time))
        #expect(alerts.field == "body.since")
    }

    @Test func impossibleDatesAreNotMovedToTheNextMonth() async throws {
        let store = try await Store()
        let refused = try await store.failure(RateSetRequest(base: "EUR", quote: "USD", rate: "1.1", profileId: 1, asOf: "2026-02-30"))
        #expect(refused.message.contains("2026-02-30 is not a calendar date"))
        // A real leap day and an offset are fine, and kept in the canonical UTC form.
        let leap = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.1", profileId: 1, asOf: "2024-02-29"))
        #expect(leap.rate.asOf == "2024-02-29T00:00:00.000Z")
        let offset = try await store.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.2", profileId: 1, asOf: "2024-03-01T01:30:00.123456+02:00"))
        #expect(offset.rate.asOf == "2024-02-29T23:30:00.123Z")
    }

    @Test func restoredTimesAreReadStrictly() async throws {
        let store = try await Store()
        let rate = RateRecord(id: 1, profileId: 1, base: "EUR", quote: "USD", rate: "1.1", inverseRate: "0.909090909090909091", source: "ecb",
                              asOf: "2026-02-30T15:00:00.000Z", confidence: .fetched, customOverride: false)
        #expect(try await store.failure(RateRestoreRequest(rates: [rate])).field == "body.rates[0].asOf")
    }

    @Test func theEnvelopeTimestampIsCheckedStrictly() async throws {
        let store = try await Store()
        for ts in ["2026-02-30T12:00:00.000Z", "2026-11-21T24:00:00.000Z", "2026-11-21T12:00:00.000Z\\u0000", "2026-11-21"] {
            let frame = Data(#"{"v":1,"id":"t-1","type":"wallet.list","ts":"\#(ts)","body":{}}"#.utf8)
            let reply = try MessageCoding.decoder().decode(Envelope<ErrorBody>.self, from: store.router.handle(frame).reply)
            #expect(reply.type == "error")
            #expect(reply.re == "t-1")
            // A NUL breaks a value rule, checked before the envelope fields (PROTOCOL.md §2).
            #expect(reply.body.code == (ts.hasSuffix("u0000") ? .validationFailed : .malformed))
            #expect(reply.body.field == "ts")
        }
    }

    // MARK: Defect 2: one rate range; conversion results below the amount limit

    @Test func everyRateIsCheckedAgainstTheOneRange() async throws {
        let store = try await Store()
        let euro = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR"))
        for (rate, ok) in [("1000000000000", true), ("0.000000000001", true), ("1000000000001", false), ("0.0000000000009", false)] {
            let set = RateSetRequest(base: "BTC", quote: "VND", rate: rate, profileId: 3)
            let batch = RateBatchRequest(profileId: 3, source: "feed", rates: [RateInput(base: "BTC", quote: "IRR", rate: rate, asOf: "2026-10-30")])
            if ok {
                _ = try await store.call(set)
                _ = try await store.call(batch)
            } else {
                let refused = try await store.failure(set)
                #expect(refused.field == "body.rate")
                #expect(refused.message.contains(ExchangeRate.rangeDescription))
                #expect(try await store.failure(batch).field == "body.rates[0].rate")
                let oneOff = try await store.failure(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "5", currency: "USD", rate: rate, date: "2026-11-01"))
                #expect(oneOff.field == "body.rate")
            }
        }
    }

    @Test func aConversionResultAtTheAmountLimitIsRefused() async throws {
        let store = try await Store()
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "1000", profileId: 1))
        // 999,999,999,999.99 EUR × 1000 = 999,999,999,999,990 JPY: below 10^15, recorded.
        #expect(try await store.call(ConvertRequest(amount: "999999999999.99", from: "EUR", to: "JPY")).result == "999999999999990")
        // 10^12 EUR × 1000 = 10^15 JPY: at the limit, refused, naming the amount.
        let tooLarge = try await store.failure(ConvertRequest(amount: "1000000000000", from: "EUR", to: "JPY"))
        #expect(tooLarge.code == .validationFailed)
        #expect(tooLarge.field == "body.amount")
        #expect(tooLarge.message.contains("must be below 1000000000000000 JPY"))
        #expect(try await store.call(ConversionHistoryRequest()).conversions.count == 1)
    }

    @Test func aTransactionWhoseBaseAmountWouldReachTheLimitIsRefused() async throws {
        let store = try await Store()
        _ = try await store.call(RateSetRequest(base: "BTC", quote: "EUR", rate: "10000000", profileId: 1, asOf: "2026-10-01"))
        let bitcoin = try await store.call(WalletCreateRequest(name: "Cold", currency: "BTC"))
        // 9,999,999 BTC is an amount (below 10^15 satoshis), but 10^14 EUR is not.
        let refused = try await store.failure(TransactionCreateRequest(kind: .income, walletId: bitcoin.id, amount: "9999999", date: "2026-11-01"))
        #expect(refused.field == "body.amount")
        #expect(refused.message.contains("EUR"))
        #expect(try store.count("transactions") == 0)
        let transfer = try await store.call(WalletCreateRequest(name: "Hot", currency: "BTC"))
        _ = try await store.call(TransactionCreateRequest(kind: .income, walletId: bitcoin.id, amount: "1", date: "2026-11-01"))
        let move = try await store.failure(TransferCreateRequest(fromWalletId: bitcoin.id, toWalletId: transfer.id, amount: "9999999", date: "2026-11-01"))
        #expect(move.field == "body.amount")
    }

    // MARK: Defect 3: historic currencies keep their exponent

    @Test func historicCurrenciesHaveTheirISOExponent() async throws {
        let store = try await Store()
        let lira = try await store.call(WalletCreateRequest(name: "Old lira", currency: "TRL"))
        let refused = try await store.failure(TransactionCreateRequest(kind: .expense, walletId: lira.id, amount: "100.55", date: "2004-12-01"))
        #expect(refused.field == "body.amount")
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "TRL", rate: "1836200", profileId: 1, asOf: "2004-12-31"))
        let converted = try await store.call(ConvertRequest(amount: "1.23", from: "EUR", to: "TRL"))
        #expect(converted.result == "2258526")
        let back = try await store.call(ConvertRequest(amount: "1000000", from: "TRL", to: "EUR"))
        #expect(back.result == "0.54")  // 1000000 / 1836200 = 0.5446…
    }

    // MARK: Defect 4: errors name the field at fault

    @Test func aNegativeProviderCountNamesItsOwnField() async throws {
        let store = try await Store()
        for (failures, stored, confirmed, field) in [(0, -1, 0, "body.stored"), (0, 0, -1, "body.confirmed"), (-1, 0, 0, "body.consecutiveFailures")] {
            let refused = try await store.failure(RateProviderReportRequest(name: "ecb", profile: "official", attemptedAt: "2026-10-30T12:00:00Z", error: nil,
                                                                            consecutiveFailures: failures, nextAttemptAt: nil, stored: stored, confirmed: confirmed))
            #expect(refused.field == field)
        }
    }

    @Test func aOneOffRateTooSmallForTheAmountNamesTheRate() async throws {
        let store = try await Store()
        let euro = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR"))
        // 1 JPY at 0.001 EUR per JPY is 0.001 EUR: nothing to record. The rate is what to fix.
        let refused = try await store.failure(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "1", currency: "JPY", rate: "0.001", date: "2026-11-01"))
        #expect(refused.field == "body.rate")
        #expect(refused.message.contains("too small"))
    }
}
