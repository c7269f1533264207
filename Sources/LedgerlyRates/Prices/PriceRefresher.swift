import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Fetches asset prices for the assets the store wants priced (`invest.price.wanted`: held or
/// watched) and stores them with one `invest.price.record` per provider and refresh (D150–D154).
///
/// It runs inside `RateRefresher`'s refreshes, under its one-at-a-time lock, on the same
/// schedule, backoff and status rules as the rate providers: each price provider has a status
/// in the store (`prices.alphavantage`, `prices.coingecko`, `prices.finnhub`), a failure backs it
/// off (never sooner than a 429's `Retry-After`, nor before midnight UTC when Alpha Vantage's
/// daily quota is gone), and a restarted service resumes from what the store kept.
///
/// Per provider, a request's document is all or nothing: a bad document stores nothing from it.
/// A failure that concerns the provider rather than one symbol (an HTTP error, a rate limit, an
/// error document, a used-up quota) stops asking it for the rest of the refresh. Prices from the
/// good documents go to the store together; any failure makes the attempt a failure, and the
/// status says what failed.
actor PriceRefresher {
    private struct State {
        var failures = 0
        /// nil: due now.
        var nextAttempt: Date?
        var lastSuccess: Date?
        var lastRequest: ContinuousClock.Instant?
    }

    /// What one provider's attempt came to, before it is reported.
    private struct Attempt {
        var snapshots: [PriceSnapshotInput] = []
        /// A failure of the provider: nothing more was asked.
        var stop: String?
        /// Failures of single symbols; the others went on.
        var problems: [String] = []
        var retryAfter: Int?
        /// Nothing can be asked before the next UTC day (the daily quota is used up).
        var untilTomorrow = false
    }

    private let configuration: RatesConfiguration.Prices
    private let store: AsyncRequestClient
    private let fetcher: ProviderFetcher
    private let clock: ServiceClock
    private let logger: Logger
    private let backoff: Backoff
    private var states: [PriceSource: State] = [:]
    private var quota: DailyQuota
    private var resumed = false
    private var lastPurgeDay: String?

    init(configuration: RatesConfiguration.Prices, store: AsyncRequestClient, fetcher: ProviderFetcher, clock: ServiceClock, logger: Logger, backoff: Backoff) {
        self.configuration = configuration
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
        self.logger = logger
        self.backoff = backoff
        self.quota = DailyQuota(limit: configuration.dailyQuota, day: DailyQuota.day(of: clock.now()))
    }

    /// The status names this service reports, for the cleanup of removed providers.
    static var statusNames: Set<String> { Set(PriceSource.allCases.map(\.statusName)) }

    // MARK: Entry points

    /// One price refresh: every provider with assets to price that is due (all of them when
    /// `force`, as `rates.refresh` asks). Returns what each did; empty when the store does not
    /// answer `invest.price.wanted` (before setup, or a store without investments).
    func refresh(force: Bool, interval: Duration) async -> [ProviderRefreshResult] {
        guard configuration.isEnabled else { return [] }
        let wanted: [PricedAsset]
        do {
            wanted = try await store.call(PriceWantedRequest()).assets
        } catch {
            logger.debug("no assets to price yet", metadata: ["error": "\(error)"])
            return []
        }
        await resume()
        let now = clock.now()
        let plan = PricePlan(assets: wanted, now: now)
        var results: [ProviderRefreshResult] = []
        for source in PriceSource.allCases {
            guard let work = plan.work[source] else { continue }
            let state = states[source] ?? State()
            // A new asset (no price at all) makes a healthy provider due at once.
            let newAsset = state.failures == 0 && work.assets.values.joined().contains { $0.latestAsOf == nil }
            guard force || newAsset || (state.nextAttempt ?? now) <= now else { continue }
            guard let result = await refresh(source, work, interval: interval) else { break }
            results.append(result)
        }
        return results
    }

    /// When the next provider is due, if one has been asked before.
    func nextAttempt() -> Date? {
        states.values.compactMap(\.nextAttempt).min()
    }

    /// `invest.price.purge` once per UTC day (and once per start: it is safe to repeat), so the
    /// store keeps 72 hours of snapshots and one close per day before that. A store that does
    /// not answer is asked again at the next refresh.
    func purgeIfDue() async {
        guard configuration.purges else { return }
        let today = DailyQuota.day(of: clock.now())
        guard lastPurgeDay != today else { return }
        do {
            let reply = try await store.call(PricePurgeRequest())
            lastPurgeDay = today
            logger.info("purged price snapshots", metadata: ["removed": "\(reply.removed)", "kept": "\(reply.kept)"])
        } catch {
            logger.debug("could not purge price snapshots yet", metadata: ["error": "\(error)"])
        }
    }

    // MARK: One provider

    /// One provider's attempt, stored, recorded and reported; nil when the service is shutting down.
    private func refresh(_ source: PriceSource, _ work: PricePlan.Work, interval: Duration) async -> ProviderRefreshResult? {
        let attemptedAt = clock.now()
        var attempt = switch source {
        case .alphaVantage: await alphaVantage(work)
        case .coinGecko: await coinGecko(work)
        case .finnhub: await finnhub(work)
        }
        guard !Task.isCancelled else { return nil }

        var stored = 0, duplicates = 0
        if !attempt.snapshots.isEmpty {
            do {
                let reply = try await store.call(PriceRecordRequest(snapshots: attempt.snapshots))
                (stored, duplicates) = (reply.stored, reply.duplicates)
            } catch {
                attempt.stop = [attempt.stop, "the store refused the prices: \(error)"].compactMap { $0 }.joined(separator: "; ")
            }
        }
        let error = ([attempt.stop].compactMap { $0 } + attempt.problems).joined(separator: "; ")
        let reported = error.isEmpty ? nil : RateProviderStatus.fitting(redacted(error))

        var state = states[source] ?? State()
        let now = clock.now()
        if let reported {
            state.failures += 1
            var next = now.addingTimeInterval(TimeInterval(backoff.delaySeconds(afterFailures: state.failures, retryAfter: attempt.retryAfter)))
            if attempt.untilTomorrow { next = max(next, DailyQuota.nextDay(after: now)) }
            state.nextAttempt = next
            logger.warning("price provider failed", metadata: ["provider": "\(source.statusName)", "error": "\(reported)", "failures": "\(state.failures)", "stored": "\(stored)"])
        } else {
            state.failures = 0
            state.lastSuccess = now
            state.nextAttempt = now.addingTimeInterval(interval.seconds)
            logger.info("prices refreshed", metadata: ["provider": "\(source.statusName)", "stored": "\(stored)", "duplicates": "\(duplicates)"])
        }
        states[source] = state
        let nextAttemptAt = state.nextAttempt.map(Timestamp.string(from:))
        let hasQuota = source == .alphaVantage
        let report = RateProviderReportRequest(
            name: source.statusName, profile: PriceSource.statusProfile, attemptedAt: Timestamp.string(from: attemptedAt), error: reported,
            consecutiveFailures: state.failures, nextAttemptAt: nextAttemptAt, stored: stored, confirmed: duplicates,
            requestsUsed: hasQuota ? quota.used : nil, requestQuota: hasQuota ? quota.limit : nil, quotaDay: hasQuota ? quota.day : nil)
        do { _ = try await store.call(report) } catch {
            logger.warning("could not record the price provider's status", metadata: ["provider": "\(source.statusName)", "error": "\(error)"])
        }
        return ProviderRefreshResult(name: source.statusName, profile: PriceSource.statusProfile, stored: stored, confirmed: duplicates, skipped: 0,
                                     error: reported, finishedAt: Timestamp.string(from: now), nextAttemptAt: nextAttemptAt,
                                     requestsUsed: hasQuota ? quota.used : nil, requestQuota: hasQuota ? quota.limit : nil)
    }

    private func alphaVantage(_ work: PricePlan.Work) async -> Attempt {
        var attempt = Attempt()
        let settings = configuration.alphaVantage ?? .init()
        guard let key = settings.apiKey else {
            attempt.stop = "Alpha Vantage needs an API key: set prices.alphaVantage.apiKey in rates.json (\(Self.list(work.keys)) wait)"
            return attempt
        }
        let remaining = quota.remaining(at: clock.now())
        guard remaining > 0 else {
            attempt.stop = "the daily quota is used up (\(quota.used)/\(quota.limit) requests on \(quota.day)); asking again after 00:00 UTC (\(Self.list(work.keys)) wait)"
            attempt.untilTomorrow = true
            return attempt
        }
        let base = settings.url ?? RatesConfiguration.Prices.alphaVantageURL
        requests: for symbol in work.keys.prefix(remaining) {
            await pace(.alphaVantage, seconds: settings.minimumSecondsBetweenRequests ?? 1)
            if Task.isCancelled { return attempt }
            quota.spend(at: clock.now())
            let url = "\(base)?function=GLOBAL_QUOTE&symbol=\(Self.encoded(symbol))&apikey=\(Self.encoded(key))"
            let data: Data
            do {
                data = try await fetcher.fetch(url, headers: [:], timeoutSeconds: settings.timeoutSeconds ?? 10)
            } catch {
                attempt.stop = "\(symbol): \(error)"
                attempt.retryAfter = ProviderFetcher.retryAfter(error)
                break requests
            }
            let fetchedAt = clock.now()
            do {
                let price = try AlphaVantageQuoteParser(symbol: symbol).parse(data)
                attempt.snapshots += (work.assets[symbol] ?? []).map { Self.snapshot(price, of: $0, from: .alphaVantage, fetchedAt: fetchedAt) }
            } catch {
                switch error {
                case .limitReported(_, let message):
                    attempt.stop = "\(symbol): \(error)"
                    if AlphaVantageQuoteParser.isDailyLimit(message) {
                        quota.exhaust(at: fetchedAt)
                        attempt.untilTomorrow = true
                    }
                    break requests
                case .providerReported:
                    attempt.stop = "\(symbol): \(error)"
                    break requests
                default:
                    attempt.problems.append("\(symbol): \(error)")
                }
            }
        }
        if attempt.stop == nil, work.keys.count > remaining {
            let waiting = Array(work.keys.dropFirst(remaining))
            attempt.problems.append("the daily quota is used up (\(quota.used)/\(quota.limit) requests on \(quota.day)); \(Self.list(waiting)) wait until 00:00 UTC")
            attempt.untilTomorrow = true
        }
        return attempt
    }

    private func coinGecko(_ work: PricePlan.Work) async -> Attempt {
        var attempt = Attempt()
        let settings = configuration.coinGecko ?? .init()
        let base = settings.url ?? RatesConfiguration.Prices.coinGeckoURL
        requests: for ids in work.keys.chunked(settings.maximumPerRequest ?? 50) {
            await pace(.coinGecko, seconds: settings.minimumSecondsBetweenRequests ?? 1)
            if Task.isCancelled { return attempt }
            let assets = ids.flatMap { work.assets[$0] ?? [] }
            let vs = Set(assets.map { $0.quoteCurrency.lowercased() }).sorted().joined(separator: ",")
            let url = "\(base)?ids=\(ids.map(Self.encoded).joined(separator: ","))&vs_currencies=\(Self.encoded(vs))&include_last_updated_at=true"
            let data: Data
            do {
                data = try await fetcher.fetch(url, headers: settings.headers ?? [:], timeoutSeconds: settings.timeoutSeconds ?? 10)
            } catch {
                attempt.stop = "\(error)"
                attempt.retryAfter = ProviderFetcher.retryAfter(error)
                break requests
            }
            let fetchedAt = clock.now()
            let prices: [ProviderPrice]
            do {
                prices = try CoinGeckoParser.prices(data, ids: Set(ids))
            } catch {
                if case .providerReported = error {
                    attempt.stop = "\(error)"
                    break requests
                }
                attempt.problems.append("\(error)")
                continue
            }
            for id in ids {
                for asset in work.assets[id] ?? [] {
                    guard let price = prices.first(where: { $0.key == id && $0.currency == asset.quoteCurrency.uppercased() }) else {
                        attempt.problems.append("CoinGecko JSON: no \(asset.quoteCurrency) price for '\(id)' (\(asset.symbol)); check the asset's provider id")
                        continue
                    }
                    attempt.snapshots.append(Self.snapshot(price, of: asset, from: .coinGecko, fetchedAt: fetchedAt))
                }
            }
        }
        return attempt
    }

    private func finnhub(_ work: PricePlan.Work) async -> Attempt {
        var attempt = Attempt()
        guard configuration.isFinnhubEnabled, let key = configuration.finnhub?.apiKey else {
            attempt.stop = "Finnhub is off: set prices.finnhub.enabled and apiKey in rates.json (\(Self.list(work.keys)) wait)"
            return attempt
        }
        let settings = configuration.finnhub ?? .init()
        let base = settings.url ?? RatesConfiguration.Prices.finnhubURL
        requests: for symbol in work.keys {
            await pace(.finnhub, seconds: settings.minimumSecondsBetweenRequests ?? 1)
            if Task.isCancelled { return attempt }
            let data: Data
            do {
                data = try await fetcher.fetch("\(base)?symbol=\(Self.encoded(symbol))", headers: ["X-Finnhub-Token": key], timeoutSeconds: settings.timeoutSeconds ?? 10)
            } catch {
                attempt.stop = "\(symbol): \(error)"
                attempt.retryAfter = ProviderFetcher.retryAfter(error)
                break requests
            }
            let fetchedAt = clock.now()
            do {
                let price = try FinnhubQuoteParser(symbol: symbol).parse(data)
                attempt.snapshots += (work.assets[symbol] ?? []).map { Self.snapshot(price, of: $0, from: .finnhub, fetchedAt: fetchedAt) }
            } catch {
                if case .providerReported = error {
                    attempt.stop = "\(symbol): \(error)"
                    break requests
                }
                attempt.problems.append("\(symbol): \(error)")
            }
        }
        return attempt
    }

    // MARK: Helpers

    /// The snapshot of `price` for `asset`. Its moment is the provider's own (CoinGecko's
    /// `last_updated_at`, Finnhub's `t`); for Alpha Vantage's latest trading day, the fetch time
    /// when that day is today (the price is live and changes during the day), else the start of
    /// that day in UTC, so the same close read again is the same snapshot (D152).
    static func snapshot(_ price: ProviderPrice, of asset: PricedAsset, from source: PriceSource, fetchedAt: Date) -> PriceSnapshotInput {
        let fetched = Timestamp.string(from: fetchedAt)
        var asOf = fetched
        if let given = price.asOf, let milliseconds = try? Timestamp.milliseconds(given, date: .startOfDay) {
            asOf = Timestamp.string(milliseconds: milliseconds)
        } else if let day = price.day, day.description != String(fetched.prefix(10)) {
            asOf = "\(day)T00:00:00.000Z"
        }
        return PriceSnapshotInput(assetId: asset.assetId, price: price.price.decimalString, currency: asset.quoteCurrency, source: source.source, asOf: asOf, confidence: .fetched)
    }

    /// Picks up what the store kept from the last run: failures, next attempt, last success and
    /// the day's Alpha Vantage requests. On the first refresh after a start, a healthy provider
    /// is due at once (what changed while the service was down is unknown); a failing one keeps
    /// its backoff.
    private func resume() async {
        guard !resumed else { return }
        do {
            let statuses = try await store.call(RateProviderListRequest()).providers
            for source in PriceSource.allCases {
                guard let status = statuses.first(where: { $0.name == source.statusName }) else { continue }
                states[source] = State(
                    failures: status.consecutiveFailures,
                    nextAttempt: status.consecutiveFailures > 0 ? status.nextAttemptAt.flatMap(Timestamp.parse) : nil,
                    lastSuccess: status.lastSuccessAt.flatMap(Timestamp.parse))
                if source == .alphaVantage { quota.resume(day: status.quotaDay, used: status.requestsUsed, at: clock.now()) }
            }
            resumed = true
        } catch {
            logger.debug("cannot read the price providers' status yet", metadata: ["error": "\(error)"])
        }
    }

    /// Waits until the provider's last request is at least `seconds` ago.
    private func pace(_ source: PriceSource, seconds: Double) async {
        let spacing = Duration.milliseconds(Int64(seconds * 1_000))
        if let last = states[source]?.lastRequest {
            let elapsed = ContinuousClock.now - last
            if elapsed < spacing { try? await Task.sleep(for: spacing - elapsed) }
        }
        states[source, default: State()].lastRequest = ContinuousClock.now
    }

    /// The error text with every configured key replaced, so a key can reach neither the status
    /// nor a log even if a transport error quotes the URL it was sent in.
    private func redacted(_ text: String) -> String {
        Self.redacted(text, secrets: [configuration.alphaVantage?.apiKey, configuration.finnhub?.apiKey].compactMap { $0 })
    }

    static func redacted(_ text: String, secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: "<redacted>").replacingOccurrences(of: encoded(secret), with: "<redacted>")
        }
    }

    /// A query value, percent-encoded (symbols such as "BRK.B" or "^GSPC" and keys stay intact).
    static func encoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// "AAPL, MSFT and 3 more", for messages.
    static func list(_ keys: [String]) -> String {
        keys.count <= 5 ? keys.joined(separator: ", ") : keys.prefix(5).joined(separator: ", ") + " and \(keys.count - 5) more"
    }
}
