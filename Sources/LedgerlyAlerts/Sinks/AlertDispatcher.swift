import AsyncHTTPClient
import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Hands every alert to the configured sinks without ever making evaluation wait for them.
///
/// `dispatch` returns as soon as the alert is logged, queued for the command hooks, and written
/// to the webhook outbox; `run()` does the slow part in the background:
///
/// - **Webhooks: at least once, across restarts.** A delivery is a file in the outbox
///   (`AlertOutbox`, `<home>/state/alerts-outbox/<webhook>-<alert id>.json`) before `dispatch`
///   returns. It is removed when the receiver answers 2xx; otherwise it is retried after
///   `retryInitialSeconds`, doubling up to `retryMaximumSeconds` (no sooner than a 429/503
///   `Retry-After` asks), until `maximumAttempts` attempts were made, and then moved to
///   `failed/` with an error in the log. `run()` starts with whatever the outbox holds, so a
///   receiver that was down while the service restarted still gets its alerts. Each webhook gets
///   one request at a time, in alert-id order (a later alert waits behind an earlier one that is
///   being retried). Receivers deduplicate with `X-Ledgerly-Alert-Key`.
/// - **Command hooks: at most once.** They are queued in memory and run one at a time per hook;
///   a hook that was queued or running when the service stopped does not run again. That is
///   enough for desktop notifications and mails, and never shows an old alert twice.
/// - The log sink runs inside `dispatch` itself.
public actor AlertDispatcher {
    /// Hooks queued beyond this many are dropped (with a warning): a hook far slower than alerts arrive.
    public static let hookQueueLimit = 1_000
    /// The longest `Retry-After` honoured.
    static let maximumRetryAfterSeconds: Double = 86_400

    public nonisolated let outbox: AlertOutbox
    private let logSink: LogAlertSink
    private let webhooks: [WebhookSink]
    private let wakeups: [String: DeliveryWakeup]
    private let hooks: [(sink: CommandHookSink, queue: AsyncStream<AlertRecord>, enqueue: AsyncStream<AlertRecord>.Continuation)]
    private let logger: Logger
    /// Webhook deliveries waiting, by webhook name and alert id (mirrors the outbox files).
    private var pending: [String: [Int64: AlertOutboxEntry]] = [:]
    private var loaded = false
    private var running = false

    public init(home: LedgerlyHome, configuration: AlertSinksConfiguration, client: HTTPClient = WebhookSink.client, logger: Logger) {
        self.outbox = AlertOutbox(home: home)
        self.logger = logger
        self.logSink = LogAlertSink(logger: logger)
        self.webhooks = configuration.webhooks.map { WebhookSink(webhook: $0, client: client, logger: logger) }
        self.wakeups = Dictionary(uniqueKeysWithValues: configuration.webhooks.map { ($0.name, DeliveryWakeup()) })
        self.hooks = configuration.commandHooks.map { hook in
            let (queue, enqueue) = AsyncStream.makeStream(of: AlertRecord.self, bufferingPolicy: .bufferingOldest(Self.hookQueueLimit))
            return (CommandHookSink(hook: hook, logger: logger), queue, enqueue)
        }
    }

    /// Reads `<config>/alerts.json` (see `AlertSinksConfiguration`) and makes the dispatcher.
    public static func make(home: LedgerlyHome, client: HTTPClient = WebhookSink.client, logger: Logger) throws(AlertSinksConfigurationError) -> AlertDispatcher {
        let configuration = try AlertSinksConfiguration.load(home: home, logger: logger)
        return AlertDispatcher(home: home, configuration: configuration, client: client, logger: logger)
    }

    /// Logs the alert, queues it for every hook and persists a delivery for every webhook, then
    /// returns; it never waits for a hook or a receiver. An alert already waiting for a webhook
    /// (the same id dispatched again) is not queued twice for it.
    public func dispatch(_ alert: AlertRecord) async {
        await logSink.deliver(alert)
        for hook in hooks {
            switch hook.enqueue.yield(alert) {
            case .dropped:
                logger.warning("alert hook queue full; the hook will not run for this alert", metadata: ["hook": "\(hook.sink.name)", "alert.id": "\(alert.id)"])
            case .terminated:
                logger.warning("alert hooks stopped; the hook will not run for this alert", metadata: ["hook": "\(hook.sink.name)", "alert.id": "\(alert.id)"])
            case .enqueued:
                break
            @unknown default:
                break
            }
        }
        loadIfNeeded()
        let now = Date()
        for webhook in webhooks where pending[webhook.name]?[alert.id] == nil {
            let entry = AlertOutboxEntry(sink: webhook.name, alert: alert, nextAttemptAt: now, enqueuedAt: now)
            do { try outbox.save(entry) } catch {
                logger.error("could not persist an alert webhook delivery; it will be tried, but not after a restart", metadata: ["webhook": "\(webhook.name)", "alert.id": "\(alert.id)", "error": "\(error)"])
            }
            pending[webhook.name, default: [:]][alert.id] = entry
            wakeups[webhook.name]?.notify()
        }
    }

    /// Delivers to hooks and webhooks until cancelled, starting with what the outbox holds.
    /// Returns only when cancelled, even with no sink to serve. Call it once.
    public func run() async {
        guard !running else {
            logger.error("the alert dispatcher is already running")
            return
        }
        running = true
        loadIfNeeded()
        logger.info("alert sinks", metadata: [
            "hooks": "\(hooks.map(\.sink.name))",
            "webhooks": "\(webhooks.map(\.name))",
            "outbox.pending": "\(pending.values.map(\.count).reduce(0, +))",
        ])
        await withDiscardingTaskGroup { group in
            for webhook in webhooks {
                guard let wakeup = wakeups[webhook.name] else { continue }
                group.addTask { await self.deliveries(to: webhook, wakeup: wakeup) }
            }
            for hook in hooks {
                let (sink, queue) = (hook.sink, hook.queue)
                group.addTask {
                    for await alert in queue { await sink.deliver(alert) }
                }
            }
            group.addTask {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
            }
        }
    }

    /// The webhook deliveries waiting (in the outbox), by webhook name then alert id.
    public func pendingDeliveries() -> [AlertOutboxEntry] {
        loadIfNeeded()
        return pending.values.flatMap(\.values).sorted { ($0.sink, $0.alert.id) < ($1.sink, $1.alert.id) }
    }

    // MARK: Webhooks

    /// One webhook's worker: the lowest alert id first, one request at a time.
    private func deliveries(to webhook: WebhookSink, wakeup: DeliveryWakeup) async {
        while !Task.isCancelled {
            guard let entry = pending[webhook.name]?.values.min(by: { $0.alert.id < $1.alert.id }) else {
                await wakeup.wait(upTo: nil)
                continue
            }
            let wait = entry.nextAttemptAt.timeIntervalSinceNow
            if wait > 0 {
                await wakeup.wait(upTo: .milliseconds(Int64((wait * 1_000).rounded(.up))))
                continue
            }
            let outcome = await webhook.attempt(entry.alert)
            record(outcome, of: entry, for: webhook.webhook)
        }
    }

    private func record(_ outcome: WebhookSink.Outcome, of entry: AlertOutboxEntry, for webhook: AlertSinksConfiguration.Webhook) {
        var entry = entry
        var metadata: Logger.Metadata = ["webhook": "\(webhook.name)", "alert.id": "\(entry.alert.id)", "key": "\(entry.alert.key)"]
        switch outcome {
        case .cancelled:
            return
        case .delivered(let status):
            pending[webhook.name]?[entry.alert.id] = nil
            metadata["status"] = "\(status)"
            metadata["attempts"] = "\(entry.attempts + 1)"
            logger.info("alert delivered", metadata: metadata)
            do { try outbox.remove(entry) } catch {
                metadata["error"] = "\(error)"
                logger.error("alert delivered but its outbox file could not be removed; it may be sent again after a restart", metadata: metadata)
            }
        case .failed(let reason, let retryAfter):
            entry.attempts += 1
            entry.lastError = reason
            metadata["attempts"] = "\(entry.attempts)/\(webhook.effectiveMaximumAttempts)"
            metadata["error"] = "\(reason)"
            if entry.attempts >= webhook.effectiveMaximumAttempts {
                pending[webhook.name]?[entry.alert.id] = nil
                do {
                    let path = try outbox.moveToFailed(entry)
                    metadata["path"] = "\(path.path)"
                    logger.error("alert webhook delivery gave up after its last attempt", metadata: metadata)
                } catch {
                    metadata["outbox"] = "\(error)"
                    logger.error("alert webhook delivery gave up after its last attempt; it could not be moved to failed/", metadata: metadata)
                }
                return
            }
            let backoff = webhook.backoffSeconds(afterFailures: entry.attempts)
            let delay = max(backoff, min(retryAfter ?? 0, Self.maximumRetryAfterSeconds))
            entry.nextAttemptAt = Date().addingTimeInterval(delay)
            pending[webhook.name]?[entry.alert.id] = entry
            metadata["retryInSeconds"] = "\(delay)"
            logger.warning("alert webhook delivery failed; will retry", metadata: metadata)
            do { try outbox.save(entry) } catch {
                logger.error("could not update the alert outbox", metadata: ["webhook": "\(webhook.name)", "alert.id": "\(entry.alert.id)", "error": "\(error)"])
            }
        }
    }

    /// Takes in what the outbox holds, once (on the first `dispatch` or `run`).
    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        let (entries, unreadable) = outbox.load()
        for (file, reason) in unreadable {
            logger.error("unreadable alert outbox file moved to failed/", metadata: ["file": "\(file)", "error": "\(reason)"])
        }
        let names = Set(webhooks.map(\.name))
        var resumed = 0
        for entry in entries {
            guard names.contains(entry.sink) else {
                logger.warning("the alert outbox holds a delivery for a webhook that is not configured; it is kept until that webhook is back", metadata: ["webhook": "\(entry.sink)", "alert.id": "\(entry.alert.id)"])
                continue
            }
            if pending[entry.sink]?[entry.alert.id] == nil {
                pending[entry.sink, default: [:]][entry.alert.id] = entry
                resumed += 1
            }
        }
        if resumed > 0 {
            logger.info("resuming alert webhook deliveries from the outbox", metadata: ["count": "\(resumed)", "outbox": "\(outbox.directory.path)"])
        }
    }
}
