import AsyncHTTPClient
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Fetches providers and stores their rates for the currencies in use, as `rates.batch` requests
/// (each all or nothing), and keeps each provider's schedule:
///
/// - after a success, the provider is due again `priceRefreshIntervalMinutes` later;
/// - after a failure, after a backoff that doubles with each failure in a row (`Backoff`);
/// - a currency newly in use (a wallet, a changed base) makes every healthy provider due at once.
///
/// Every attempt is reported to the store (`rates.provider.report`), which keeps it and records
/// it in the change log: that is how `ledgerly status` shows provider health, and how a restarted
/// rates service resumes its backoff instead of hammering a provider that was failing.
///
/// Asset prices (`PriceRefresher`) are refreshed in the same refreshes, after the rates.
///
/// Refreshes run one at a time (an on-demand refresh waits for a scheduled one), and requests to
/// one provider are paced at least `minimumSecondsBetweenRequests` apart.
///
/// No provider — rates or prices — is asked before setup is complete or while the exchange mode
/// is manual (`LedgerNeeds.notFetched`, D400): the welcome step promises nothing is sent, and
/// manual promises nothing is fetched. The drop folders and the nightly purge are local and go on.
actor RateRefresher {
    static let batchSize = 5_000

    /// What one refresh works from, read from the store first.
    struct LedgerNeeds: Sendable {
        /// The currencies in use (wallets and base); nil before setup: everything offered.
        var currencies: Set<String>?
        var profiles: [RateProfileRecord]
        var interval: Duration
        /// Why no provider may be asked now (setup not complete, manual mode); nil when they may.
        var notFetched: String?
    }

    static let beforeSetup = "setup is not complete: no provider is asked before it (`ledgerly setup`)"
    static let manualMode = "the exchange mode is manual: nothing is fetched, neither rates nor security prices; type rates with `ledgerly rates set`, or fetch with `ledgerly rates profile use official`"

    private struct ProviderState {
        var failures = 0
        /// nil: due now.
        var nextAttempt: Date?
        var lastSuccess: Date?
        var lastRequest: ContinuousClock.Instant?
    }

    private let configuration: RatesConfiguration
    private let store: AsyncRequestClient
    private let fetcher: ProviderFetcher
    private let clock: ServiceClock
    private let logger: Logger
    private let backoff: Backoff
    /// Asset prices, refreshed in the same refreshes, under the same lock.
    private let prices: PriceRefresher
    private var states: [String: ProviderState] = [:]
    private var resumed = false
    /// What the previous refresh worked from, to notice new currencies and a new interval.
    private var lastNeeds: LedgerNeeds?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(configuration: RatesConfiguration, store: AsyncRequestClient, client: HTTPClient, clock: ServiceClock, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.fetcher = ProviderFetcher(client: client)
        self.clock = clock
        self.logger = logger
        self.backoff = configuration.effectiveSchedule.backoff
        self.prices = PriceRefresher(configuration: configuration.effectivePrices, store: store, fetcher: fetcher, clock: clock, logger: logger, backoff: backoff)
    }

    // MARK: Entry points

    /// On demand (`ledgerly rates refresh`): every provider now, backoff or not — the user asked.
    func refreshAll() async throws(ClientError) -> RatesRefreshReply {
        await acquire()
        defer { release() }
        let needs = try await readNeeds()
        if let reason = needs.notFetched {
            lastNeeds = nil
            logger.info("refresh asked for; nothing fetched", metadata: ["reason": "\(reason)"])
            return RatesRefreshReply(providers: [], notFetched: reason)
        }
        try await resumeSchedule()
        var results: [ProviderRefreshResult] = []
        for provider in configuration.providers {
            guard let result = await refresh(provider, needs) else { break }
            results.append(result)
        }
        lastNeeds = needs
        guard !Task.isCancelled else { return RatesRefreshReply(providers: results) }
        results += await prices.refresh(force: true, interval: needs.interval)
        await prices.purgeIfDue()
        return RatesRefreshReply(providers: results)
    }

    /// On the schedule: the providers that are due. Returns how long until the next one is.
    func refreshDue() async -> Duration {
        await acquire()
        defer { release() }
        let needs: LedgerNeeds
        do {
            needs = try await readNeeds()
            try await resumeSchedule()
        } catch {
            logger.debug("cannot read what is needed yet", metadata: ["error": "\(error)"])
            return .seconds(5)
        }
        let now = clock.now()
        if needs.notFetched != nil {
            // Forgetting what was fetched makes every healthy provider due at once when fetching
            // is allowed again (setup completed, a fetching mode chosen); those changes wake us.
            lastNeeds = nil
            if needs.currencies != nil { await prices.purgeIfDue() }
            let wait = max(DailyQuota.nextDay(after: now).timeIntervalSince(clock.now()), 0.2)
            return .milliseconds(Int64(min(wait, needs.interval.seconds) * 1_000))
        }
        rescheduleForChanges(needs, now: now)
        for provider in configuration.providers where isDue(provider.name, now: now) {
            guard await refresh(provider, needs) != nil else { break }
        }
        lastNeeds = needs
        if !Task.isCancelled {
            _ = await prices.refresh(force: false, interval: needs.interval)
            await prices.purgeIfDue()
        }
        // The purge is due again at the next UTC midnight.
        let candidates = configuration.providers.compactMap { states[$0.name]?.nextAttempt } + [await prices.nextAttempt(), DailyQuota.nextDay(after: now)].compactMap { $0 }
        let next = candidates.min() ?? now.addingTimeInterval(needs.interval.seconds)
        let wait = max(next.timeIntervalSince(clock.now()), 0.2)
        return .milliseconds(Int64(min(wait, needs.interval.seconds) * 1_000))
    }

    // MARK: Schedule

    /// A currency newly in use makes healthy providers due now; a shorter interval brings their
    /// next attempt forward. Failing providers keep their backoff either way. On the first run
    /// after a start, what changed while the service was down is unknown, so healthy providers
    /// are due at once (one request per start, not hammering).
    private func rescheduleForChanges(_ needs: LedgerNeeds, now: Date) {
        guard let last = lastNeeds else {
            for provider in configuration.providers where (states[provider.name]?.failures ?? 0) == 0 {
                states[provider.name, default: ProviderState()].nextAttempt = now
            }
            return
        }
        let grew: Bool = switch (last.currencies, needs.currencies) {
        case (let known?, let current?): !current.isSubset(of: known)
        // Setup just completed: URL templates have currencies to ask for now.
        case (nil, .some): true
        default: false
        }
        let intervalChanged = last.interval != needs.interval
        for provider in configuration.providers {
            var state = states[provider.name] ?? ProviderState()
            guard state.failures == 0 else { continue }
            if grew { state.nextAttempt = now }
            if intervalChanged, let lastSuccess = state.lastSuccess {
                state.nextAttempt = min(state.nextAttempt ?? now, lastSuccess.addingTimeInterval(needs.interval.seconds))
            }
            states[provider.name] = state
        }
    }

    private func isDue(_ name: String, now: Date) -> Bool {
        guard let next = states[name]?.nextAttempt else { return true }
        return next <= now
    }

    /// Picks up where the last run left off: failures in a row, next attempt, last success, as
    /// the store kept them. Done once, before the first refresh.
    private func resumeSchedule() async throws(ClientError) {
        guard !resumed else { return }
        for status in try await store.call(RateProviderListRequest()).providers where configuration.providers.contains(where: { $0.name == status.name }) {
            states[status.name] = ProviderState(
                failures: status.consecutiveFailures, nextAttempt: status.nextAttemptAt.flatMap(Timestamp.parse),
                lastSuccess: status.lastSuccessAt.flatMap(Timestamp.parse))
        }
        resumed = true
    }

    private func readNeeds() async throws(ClientError) -> LedgerNeeds {
        let settings = try await store.call(SettingsGetRequest())
        var currencies: Set<String>?
        if settings.onboardingCompleted {
            let wallets = try await store.call(WalletListRequest()).wallets
            currencies = Set(wallets.map(\.currency) + [settings.baseCurrency].compactMap { $0 })
        }
        let profiles = try await store.call(RateProfileListRequest()).profiles
        let notFetched: String? = if !settings.onboardingCompleted { Self.beforeSetup } else if settings.exchangeMode == .manual { Self.manualMode } else { nil }
        return LedgerNeeds(currencies: currencies, profiles: profiles, interval: .seconds(Int64(settings.priceRefreshIntervalMinutes) * 60), notFetched: notFetched)
    }

    // MARK: One provider

    /// One provider's attempt, recorded and reported; nil when the service is shutting down
    /// (a fetch cut short by shutdown is not the provider's failure and must not start a backoff).
    private func refresh(_ provider: RatesConfiguration.Provider, _ needs: LedgerNeeds) async -> ProviderRefreshResult? {
        let attemptedAt = clock.now()
        var stored = 0, confirmed = 0, skipped = 0, corrected = 0
        var retryAfter: Int?
        let error: String? = await {
            guard let profile = needs.profiles.first(where: { $0.name.caseInsensitiveCompare(provider.profile) == .orderedSame }) else {
                return "there is no rate profile '\(provider.profile)'"
            }
            var rates: [ProviderRate] = []
            for url in ProviderRequestPlan(provider: provider, needed: needs.currencies).urls {
                await pace(provider)
                do {
                    rates += try parse(try await fetcher.fetch(url, for: provider), as: provider)
                } catch let failure as FetchError {
                    retryAfter = ProviderFetcher.retryAfter(failure)
                    return failure.description
                } catch {
                    return "\(error)"
                }
            }
            // Keep rates whose quote currency is in use; the provider's own base (EUR for the
            // ECB) is the pivot that connects them.
            let inputs = rates.filter { rate in rate.base != rate.quote && needs.currencies.map { $0.contains(rate.quote) } ?? true }.map { rate in
                RateInput(base: rate.base, quote: rate.quote, rate: rate.rate.decimalString, asOf: rate.timestamp ?? rate.date?.description ?? Timestamp.string(from: attemptedAt))
            }
            for start in stride(from: 0, to: inputs.count, by: Self.batchSize) {
                do {
                    let reply = try await store.call(RateBatchRequest(profileId: profile.id, source: provider.name, rates: Array(inputs[start..<min(start + Self.batchSize, inputs.count)])))
                    stored += reply.stored
                    confirmed += reply.confirmed
                    skipped += reply.skipped
                    corrected += reply.corrected
                } catch {
                    return "the store refused the rates: \(error)"
                }
            }
            return nil
        }()

        guard !Task.isCancelled else { return nil }
        var state = states[provider.name] ?? ProviderState()
        let now = clock.now()
        if let error {
            state.failures += 1
            let delay = backoff.delaySeconds(afterFailures: state.failures, retryAfter: retryAfter)
            state.nextAttempt = now.addingTimeInterval(TimeInterval(delay))
            logger.warning("provider failed", metadata: ["provider": "\(provider.name)", "error": "\(error)", "failures": "\(state.failures)", "retryInSeconds": "\(delay)"])
        } else {
            state.failures = 0
            state.lastSuccess = now
            state.nextAttempt = now.addingTimeInterval(needs.interval.seconds)
            logger.info("refreshed", metadata: ["provider": "\(provider.name)", "stored": "\(stored)", "confirmed": "\(confirmed)", "corrected": "\(corrected)"])
        }
        states[provider.name] = state
        let nextAttemptAt = state.nextAttempt.map(Timestamp.string(from:))
        let report = RateProviderReportRequest(
            name: provider.name, profile: provider.profile, attemptedAt: Timestamp.string(from: attemptedAt), error: error.map(RateProviderStatus.fitting),
            consecutiveFailures: state.failures, nextAttemptAt: nextAttemptAt, stored: stored + corrected, confirmed: confirmed)
        do { _ = try await store.call(report) } catch {
            logger.warning("could not record the provider's status", metadata: ["provider": "\(provider.name)", "error": "\(error)"])
        }
        return ProviderRefreshResult(name: provider.name, profile: provider.profile, stored: stored, confirmed: confirmed, skipped: skipped,
                                     error: error, finishedAt: Timestamp.string(from: now), nextAttemptAt: nextAttemptAt, corrected: corrected)
    }

    /// Waits until the provider's last request is at least its minimum spacing ago.
    private func pace(_ provider: RatesConfiguration.Provider) async {
        let spacing = Duration.milliseconds(Int64((provider.minimumSecondsBetweenRequests ?? 1) * 1_000))
        if let last = states[provider.name]?.lastRequest {
            let elapsed = ContinuousClock.now - last
            if elapsed < spacing { try? await Task.sleep(for: spacing - elapsed) }
        }
        states[provider.name, default: ProviderState()].lastRequest = ContinuousClock.now
    }

    private func parse(_ document: Data, as provider: RatesConfiguration.Provider) throws -> [ProviderRate] {
        switch provider.format {
        case .ecbDailyXML: try ECBDailyXMLParser().parse(document)
        case .ecbHistoryCSV: try ECBHistoryCSVParser().parse(document)
        case .ratesAPIJSON: try RatesAPIJSONParser().parse(document)
        case .coinGecko: try CoinGeckoParser(symbols: provider.coins ?? [:]).parse(document)
        }
    }

    // MARK: One refresh at a time

    /// Actor methods interleave at every `await`; refreshes must not (two would fetch and store
    /// the same rates, and race on a provider's failure count), so they queue here.
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
