import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Rates, conversion and rate snapshots in the store, against a real SQLite database.
/// Figures are the ECB's reference rates of 2026-10-30: 1 EUR = 1.1172 USD = 175.68 JPY.
@Suite struct RateRouterTests {
    static func ecbBatch(profileId: Int64 = 1, asOf: String = "2026-10-30T15:00:00.000Z") -> RateBatchRequest {
        RateBatchRequest(profileId: profileId, source: "ecb", rates: [
            RateInput(base: "EUR", quote: "USD", rate: "1.1172", asOf: asOf),
            RateInput(base: "EUR", quote: "JPY", rate: "175.68", asOf: asOf),
            RateInput(base: "EUR", quote: "GBP", rate: "0.8338", asOf: asOf),
        ])
    }

    @Test func profilesAreSeededAndOneIsTheDefaultPerMode() async throws {
        let store = try await Store()
        let profiles = try await store.call(RateProfileListRequest()).profiles
        #expect(Set(profiles.map(\.name)) == ["official", "parallel", "manual"])
        #expect(profiles.allSatisfy { $0.isDefault })
        let street = try await store.call(RateProfileCreateRequest(name: "blue", type: .parallel, primarySource: "dropfolder"))
        #expect(!street.isDefault)
        let used = try await store.call(RateProfileUseRequest(id: street.id))
        #expect(used.isDefault)
        #expect(try await store.call(SettingsGetRequest()).exchangeMode == .parallel)
        #expect(try await store.call(RateProfileListRequest()).profiles.filter { $0.type == .parallel && $0.isDefault }.map(\.name) == ["blue"])
    }

    @Test func aBatchIsAllOrNothingAndARepeatedBatchStoresNothing() async throws {
        let store = try await Store()
        #expect(try await store.call(Self.ecbBatch()) == RateBatchReply(stored: 3, confirmed: 0, skipped: 0, backfilled: 0))
        #expect(try await store.call(Self.ecbBatch()) == RateBatchReply(stored: 0, confirmed: 3, skipped: 0, backfilled: 0))
        var bad = Self.ecbBatch(asOf: "2026-10-31T15:00:00.000Z")
        bad.rates.append(RateInput(base: "EUR", quote: "CHF", rate: "-0.9194", asOf: "2026-10-31T15:00:00.000Z"))
        #expect(try await store.failure(bad).field == "body.rates[3].rate")
        bad.rates[3].rate = "0"
        #expect(try await store.failure(bad).field == "body.rates[3].rate")
        #expect(try await store.call(RateHistoryRequest(base: "EUR", quote: "USD")).rates.count == 1)
    }

    @Test func convertGoesDirectInvertedAndThroughTheBase() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecbBatch())
        let direct = try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD"))
        #expect(direct.result == "111.72")
        let inverted = try await store.call(ConvertRequest(amount: "100", from: "USD"))
        #expect(inverted.to == "EUR")
        #expect(inverted.result == "89.51")  // 100 / 1.1172 = 89.5095…
        let cross = try await store.call(ConvertRequest(amount: "100", from: "USD", to: "JPY"))
        // By hand through EUR: 100 / 1.1172 × 175.68 = 15725.03… → 15725 JPY.
        #expect(cross.result == "15725")
        #expect(cross.snapshot.source == "ecb+ecb")
        #expect(cross.warning?.hasSuffix(" d old") == true)  // fetched just now, but dated weeks ago: stale (D401)
        let history = try await store.call(ConversionHistoryRequest())
        #expect(history.conversions.map(\.result) == ["15725", "89.51", "111.72"])
    }

    @Test func convertUsesTheRateInForceAtAMoment() async throws {
        let store = try await Store()
        _ = try await store.call(RateBatchRequest(profileId: 1, source: "ecb", rates: [
            RateInput(base: "EUR", quote: "USD", rate: "1.113", asOf: "2026-10-29T15:00:00.000Z"),
            RateInput(base: "EUR", quote: "USD", rate: "1.1172", asOf: "2026-10-30T15:00:00.000Z"),
        ]))
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: "2026-10-29")).result == "111.30")
        #expect(try await store.call(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: "2026-10-30")).result == "111.72")
        let before = try await store.failure(ConvertRequest(amount: "100", from: "EUR", to: "USD", at: "2026-10-28"))
        #expect(before.code == .validationFailed)
        #expect(before.message.contains("no rate from EUR to USD"))
        #expect(before.message.contains("ledgerly rates set EUR USD"))
    }

    @Test func aManualRateFarFromTheLastOneIsStoredWithAWarning() async throws {
        let store = try await Store()
        let first = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1185.50", profileId: 2))
        #expect(first.warning == nil)
        #expect(first.rate.inverseRate == "0.000843525938422606495")
        let jump = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "2000", profileId: 2))
        #expect(jump.warning?.contains("more than 50 %") == true)
        #expect(try await store.failure(RateSetRequest(base: "USD", quote: "ARS", rate: "1e3")).field == "body.rate")
        #expect(try await store.failure(RateSetRequest(base: "USD", quote: "USD", rate: "1")).field == "body.quote")
        let list = try await store.call(RateListRequest(profileId: 2))
        #expect(list.rates.map(\.rate) == ["2000"])
        #expect(list.rates.first?.stale == false)
    }

    @Test func aForeignCurrencyTransactionKeepsItsSnapshotWhenRatesChangeLater() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecbBatch())
        let euro = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR", startingBalance: "100"))
        let ramen = try await store.call(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "5000", currency: "JPY", date: "2026-11-01"))
        #expect(ramen.amount == "5000")
        #expect(ramen.walletAmount == "28.46")  // 5000 / 175.68 = 28.4608…
        #expect(ramen.baseAmount == "28.46")
        #expect(ramen.conversion?.base == "JPY")
        #expect(ramen.conversion?.quote == "EUR")
        #expect(ramen.conversion?.source == "ecb")
        #expect(try await store.call(WalletGetRequest(id: euro.id)).balance == "71.54")

        // A later rate changes neither the transaction nor the wallet.
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "150", profileId: 1))
        #expect(try await store.call(TransactionGetRequest(id: ramen.id)).walletAmount == "28.46")
        // Editing the amount applies the kept rate, not today's.
        let edited = try await store.call(TransactionUpdateRequest(id: ramen.id, amount: "10000"))
        #expect(edited.walletAmount == "56.92")
        #expect(try await store.call(WalletGetRequest(id: euro.id)).balance == "43.08")
    }

    @Test func anOverrideRateIsOneOffAndAMissingRateIsAClearError() async throws {
        let store = try await Store()
        let euro = try await store.call(WalletCreateRequest(name: "Card", currency: "EUR"))
        let missing = try await store.failure(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "5000", currency: "JPY", date: "2026-11-01"))
        #expect(missing.field == "body.currency")
        #expect(missing.message.contains("no rate from JPY to EUR"))
        let charged = try await store.call(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "5000", currency: "JPY", rate: "0.0057", date: "2026-11-01"))
        #expect(charged.walletAmount == "28.50")
        #expect(charged.conversion?.override == true)
        #expect(charged.conversion?.source == "override")
        #expect(try await store.call(RateListRequest(profileId: 1)).rates.isEmpty)
        #expect(try await store.failure(TransactionCreateRequest(kind: .expense, walletId: euro.id, amount: "5", rate: "1.1", date: "2026-11-01")).field == "body.rate")
    }

    @Test func aWalletOutsideTheBaseCurrencyGetsBaseAmountsWhenARateIsKnown() async throws {
        let store = try await Store()
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY", startingBalance: "20000"))
        let early = try await store.call(TransactionCreateRequest(kind: .expense, walletId: yen.id, amount: "5000", date: "2026-11-01"))
        #expect(early.baseAmount == nil)  // no JPY→EUR rate yet: recorded, base amount pending
        #expect(early.walletAmount == "5000")
        // The rates arriving fill in the pending base amount, with the rate in force on its day.
        #expect(try await store.call(Self.ecbBatch()).backfilled == 1)
        let filled = try await store.call(TransactionGetRequest(id: early.id))
        #expect(filled.baseAmount == "28.46")
        #expect(filled.baseConversion?.source == "ecb")
        let later = try await store.call(TransactionCreateRequest(kind: .expense, walletId: yen.id, amount: "5000", date: "2026-11-01"))
        #expect(later.baseAmount == "28.46")
        #expect(later.baseCurrency == "EUR")
        #expect(later.baseConversion?.base == "JPY")
        #expect(later.baseConversion?.quote == "EUR")
        #expect(try await store.call(WalletGetRequest(id: yen.id)).balance == "10000")
    }
}

/// Cases found in review: repeated manual rates, moments, transfers across currencies, edits.
extension RateRouterTests {
    @Test func typingARateAgainForTheSameMomentCorrectsIt() async throws {
        let store = try await Store()
        _ = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1158.5", profileId: 2, asOf: "2026-11-20"))
        let corrected = try await store.call(RateSetRequest(base: "USD", quote: "ARS", rate: "1185.5", profileId: 2, asOf: "2026-11-20"))
        #expect(corrected.rate.rate == "1185.5")
        #expect(corrected.rate.asOf == "2026-11-20T00:00:00.000Z")  // a date alone: from the start of that day
        #expect(try await store.call(RateHistoryRequest(base: "USD", quote: "ARS", profileId: 2)).rates.map(\.rate) == ["1185.5"])
        let future = try await store.failure(RateSetRequest(base: "USD", quote: "ARS", rate: "1200", profileId: 2, asOf: "2099-01-01"))
        #expect(future.field == "body.asOf")
        #expect(future.message.contains("future"))
    }

    @Test func aTransferBetweenCurrenciesGivesBothLegsTheSameBaseAmount() async throws {
        let store = try await Store()
        let euro = try await store.call(WalletCreateRequest(name: "Euro", currency: "EUR", startingBalance: "500"))
        let yen = try await store.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
        let pesos = try await store.call(WalletCreateRequest(name: "Pesos", currency: "ARS"))
        // No rates at all: the leg in EUR gives the JPY leg its base amount (the transfer's own rate).
        let transfer = try await store.call(TransferCreateRequest(fromWalletId: euro.id, toWalletId: yen.id, amount: "100", toAmount: "16250", date: "2026-11-21"))
        #expect(transfer.outgoing.baseAmount == "100.00")
        #expect(transfer.incoming.baseAmount == "100.00")
        // Neither leg in EUR and no rates: neither gets a base amount, so base totals stay balanced.
        let other = try await store.call(TransferCreateRequest(fromWalletId: yen.id, toWalletId: pesos.id, amount: "1000", toAmount: "7800", date: "2026-11-21"))
        #expect(other.outgoing.baseAmount == nil)
        #expect(other.incoming.baseAmount == nil)
    }

    @Test func editingATransactionConvertedThroughAPivotReappliesTheKeptLegs() async throws {
        let store = try await Store()
        _ = try await store.call(Self.ecbBatch())
        let dollars = try await store.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        // 5000 JPY from a USD wallet: ÷ 175.68 × 1.1172 = 31.796… → 31.80 USD; base: 31.80 ÷ 1.1172 = 28.463… → 28.46 EUR.
        let ramen = try await store.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "5000", currency: "JPY", date: "2026-11-01"))
        #expect(ramen.walletAmount == "31.80")
        #expect(ramen.conversion?.legs?.map(\.inverted) == [true, false])
        #expect(ramen.baseAmount == "28.46")
        _ = try await store.call(RateSetRequest(base: "EUR", quote: "JPY", rate: "100", profileId: 1))
        let edited = try await store.call(TransactionUpdateRequest(id: ramen.id, amount: "10000"))
        #expect(edited.walletAmount == "63.59")  // 10000 ÷ 175.68 × 1.1172 = 63.593…
        #expect(edited.baseAmount == "56.92")  // 63.59 ÷ 1.1172 = 56.919…
    }
}
