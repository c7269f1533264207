import AsyncHTTPClient
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Fetches every configured provider, keeps the rates for the currencies in use (wallet
/// currencies and the base currency), and stores them through the store as `rates.batch`
/// requests (each all or nothing). A provider that fails stores nothing and says why; the
/// others go on. Refreshes never overlap: a second one waits for the first.
actor RateRefresher {
    static let batchSize = 5_000

    private let configuration: RatesConfiguration
    private let store: AsyncRequestClient
    private let fetcher: ProviderFetcher
    private let logger: Logger

    init(configuration: RatesConfiguration, store: AsyncRequestClient, client: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.fetcher = ProviderFetcher(client: client)
        self.logger = logger
    }

    func refresh() async throws(ClientError) -> [ProviderRefreshResult] {
        let settings = try await store.call(SettingsGetRequest())
        guard settings.onboardingCompleted else { throw .rejected(ErrorBody(code: .setupRequired, message: "Ledgerly is not set up yet: run `ledgerly setup` first")) }
        let wallets = try await store.call(WalletListRequest()).wallets
        let needed = Set(wallets.map(\.currency) + [settings.baseCurrency].compactMap { $0 })
        let profiles = try await store.call(RateProfileListRequest()).profiles
        var results: [ProviderRefreshResult] = []
        for provider in configuration.providers {
            results.append(await refresh(provider, needed: needed, profiles: profiles))
        }
        return results
    }

    private func refresh(_ provider: RatesConfiguration.Provider, needed: Set<String>, profiles: [RateProfileRecord]) async -> ProviderRefreshResult {
        func result(stored: Int = 0, skipped: Int = 0, error: String?) -> ProviderRefreshResult {
            if let error { logger.warning("provider failed", metadata: ["provider": "\(provider.name)", "error": "\(error)"]) }
            return ProviderRefreshResult(name: provider.name, profile: provider.profile, stored: stored, skipped: skipped, error: error, finishedAt: Timestamp.now())
        }
        guard let profile = profiles.first(where: { $0.name.caseInsensitiveCompare(provider.profile) == .orderedSame }) else {
            return result(error: "there is no rate profile '\(provider.profile)'")
        }
        let document: Data
        do { document = try await fetcher.fetch(provider) } catch { return result(error: error.description) }
        let rates: [ProviderRate]
        do { rates = try parse(document, as: provider) } catch { return result(error: "\(error)") }
        // Keep rates whose quote currency is in use; the provider's own base (EUR for the ECB)
        // is the pivot that connects them.
        let inputs = rates.filter { needed.contains($0.quote) && $0.base != $0.quote }.map { rate in
            RateInput(base: rate.base, quote: rate.quote, rate: rate.rate.decimalString, asOf: rate.timestamp ?? rate.date?.description ?? Timestamp.now())
        }
        guard !inputs.isEmpty else { return result(error: nil) }
        var stored = 0, skipped = 0
        for start in stride(from: 0, to: inputs.count, by: Self.batchSize) {
            do {
                let reply = try await store.call(RateBatchRequest(profileId: profile.id, source: provider.name, rates: Array(inputs[start..<min(start + Self.batchSize, inputs.count)])))
                stored += reply.stored
                skipped += reply.skipped
            } catch {
                return result(stored: stored, skipped: skipped, error: "the store refused the rates: \(error)")
            }
        }
        logger.info("refreshed", metadata: ["provider": "\(provider.name)", "stored": "\(stored)", "skipped": "\(skipped)"])
        return result(stored: stored, skipped: skipped, error: nil)
    }

    private func parse(_ document: Data, as provider: RatesConfiguration.Provider) throws -> [ProviderRate] {
        switch provider.format {
        case .ecbDailyXML: try ECBDailyXMLParser().parse(document)
        case .ecbHistoryCSV: try ECBHistoryCSVParser().parse(document)
        case .ratesAPIJSON: try RatesAPIJSONParser().parse(document)
        case .coinGecko: try CoinGeckoParser(symbols: provider.coins ?? [:]).parse(document)
        }
    }
}
