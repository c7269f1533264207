import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// An alert when a rate the wallets need goes stale: a rate of the active profile between two
/// currencies in use (wallet currencies and the base). Once per staleness episode — the key holds
/// the rate's own moment (`rate-stale:<profile>:<BASE>/<QUOTE>:<asOf>`), which its age counts
/// from (D401): a newer rate starts a new episode; a feed confirming the same old rate does not.
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
            let since = rate.asOf
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
