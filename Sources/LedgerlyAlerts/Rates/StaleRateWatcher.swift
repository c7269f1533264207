import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// An alert when a rate the wallets need goes stale: a rate of the active profile between two
/// currencies in use (wallet currencies and the base). Once per staleness episode — the key holds
/// the moment the rate was last fresh (`rate-stale:<profile>:<BASE>/<QUOTE>:<moment>`), so a
/// refresh that confirms the rate starts a new episode and a later staleness alerts again.
actor StaleRateWatcher {
    private let store: AsyncRequestClient
    private let logger: Logger
    private var raised: Set<String> = []

    init(store: AsyncRequestClient, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    func tick() async throws {
        let settings = try await store.call(SettingsGetRequest())
        guard settings.onboardingCompleted, settings.notifications.rateAlerts else { return }
        let inUse = Set(try await store.call(WalletListRequest()).wallets.map(\.currency) + [settings.baseCurrency].compactMap { $0 })
        guard inUse.count > 1 else { return }
        let list = try await store.call(RateListRequest())
        for rate in list.rates where rate.stale == true && inUse.contains(rate.base) && inUse.contains(rate.quote) {
            let since = rate.confirmedAt.map { max($0, rate.asOf) } ?? rate.asOf
            let key = "rate-stale:\(list.profile.id):\(rate.base)/\(rate.quote):\(since)"
            guard !raised.contains(key) else { continue }
            let age = rate.ageSeconds.map { StalenessPolicy.describe(.seconds($0)) } ?? "old"
            _ = try await store.call(AlertRaiseRequest(
                kind: .rateStale, key: key, subject: "\(rate.base)/\(rate.quote)",
                message: "\(rate.base)/\(rate.quote) rate is \(age) old (\(list.profile.name) profile, \(rate.source)); conversions use it and say so until it is refreshed",
                data: .object(["profileId": .integer(list.profile.id), "base": .string(rate.base), "quote": .string(rate.quote), "rate": .string(rate.rate), "since": .string(since)])))
            raised.insert(key)
        }
    }
}
