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
    private let hooks: [(sink: CommandHookSink, queue: AsyncStream<SinkNotice>, enqueue: AsyncStream<SinkNotice>.Continuation)]
    private let logger: Logger
    /// Webhook deliveries waiting, by webhook name and outbox file name (mirrors the outbox files).
    private var pending: [String: [String: AlertOutboxEntry]] = [:]
    private var loaded = false
    private var running = false

    public init(home: LedgerlyHome, configuration: AlertSinksConfiguration, client: HTTPClient = WebhookSink.client, logger: Logger) {
        self.outbox = AlertOutbox(home: home)
        self.logger = logger
        self.logSink = LogAlertSink(logger: logger)
        self.webhooks = configuration.webhooks.map { WebhookSink(webhook: $0, client: client, logger: logger) }
        self.wakeups = Dictionary(uniqueKeysWithValues: configuration.webhooks.map { ($0.name, DeliveryWakeup()) })
        self.wantsTransactions = configuration.commandHooks.contains { $0.effectiveEvents.contains(.transactions) }
            || configuration.webhooks.contains { $0.effectiveEvents.contains(.transactions) }
        self.hooks = configuration.commandHooks.map { hook in
            let (queue, enqueue) = AsyncStream.makeStream(of: SinkNotice.self, bufferingPolicy: .bufferingOldest(Self.hookQueueLimit))
            return (CommandHookSink(hook: hook, logger: logger), queue, enqueue)
        }
    }

    /// Reads `<config>/alerts.json` (see `AlertSinksConfiguration`) and makes the dispatcher.
    public static func make(home: LedgerlyHome, client: HTTPClient = WebhookSink.client, logger: Logger) throws(AlertSinksConfigurationError) -> AlertDispatcher {
        let configuration = try AlertSinksConfiguration.load(home: home, logger: logger)
        return AlertDispatcher(home: home, configuration: configuration, client: client, logger: logger)
    }

    /// Logs the alert, queues it for every hook and persists a delivery for every webhook (those
    /// whose `events` take alerts), then returns; it never waits for a hook or a receiver. An
    /// alert already waiting for a webhook (the same id dispatched again) is not queued twice for it.
    public func dispatch(_ alert: AlertRecord) async {
        await logSink.deliver(alert)
        enqueue(.alert(alert))
    }

    /// Whether any sink takes changes to transactions (`events` with `transactions`).
    public nonisolated let wantsTransactions: Bool

    /// Queues a change to transactions for the hooks and webhooks that take them, as `dispatch`
    /// does an alert.
    public func dispatch(transaction change: ChangeEvent) async {
        enqueue(.transaction(change))
    }

    private func enqueue(_ notice: SinkNotice) {
        let metadata: Logger.Metadata = ["key": "\(notice.key)"]
        for hook in hooks where hook.sink.hook.effectiveEvents.contains(notice.event) {
            switch hook.enqueue.yield(notice) {
            case .dropped:
                logger.warning("hook queue full; the hook will not run for this notice", metadata: metadata.merging(["hook": "\(hook.sink.name)"]) { $1 })
            case .terminated:
                logger.warning("hooks stopped; the hook will not run for this notice", metadata: metadata.merging(["hook": "\(hook.sink.name)"]) { $1 })
            case .enqueued:
                break
            @unknown default:
                break
            }
        }
        loadIfNeeded()
        let now = Date()
        for webhook in webhooks where webhook.webhook.effectiveEvents.contains(notice.event) {
            let entry = AlertOutboxEntry(sink: webhook.name, notice: notice, nextAttemptAt: now, enqueuedAt: now)
            guard pending[webhook.name]?[entry.fileName] == nil else { continue }
            do { try outbox.save(entry) } catch {
                logger.error("could not persist a webhook delivery; it will be tried, but not after a restart", metadata: metadata.merging(["webhook": "\(webhook.name)", "error": "\(error)"]) { $1 })
            }
            pending[webhook.name, default: [:]][entry.fileName] = entry
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
                    for await notice in queue { await sink.deliver(notice) }
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
        return pending.values.flatMap(\.values).sorted { ($0.sink, $0.notice.order.0, $0.notice.order.1) < ($1.sink, $1.notice.order.0, $1.notice.order.1) }
    }

    // MARK: Webhooks

    /// One webhook's worker, one request at a time: alerts by id first, then changes by sequence.
    private func deliveries(to webhook: WebhookSink, wakeup: DeliveryWakeup) async {
        while !Task.isCancelled {
            guard let entry = pending[webhook.name]?.values.min(by: { $0.notice.order < $1.notice.order }) else {
                await wakeup.wait(upTo: nil)
                continue
            }
            let wait = entry.nextAttemptAt.timeIntervalSinceNow
            if wait > 0 {
                await wakeup.wait(upTo: .milliseconds(Int64((wait * 1_000).rounded(.up))))
                continue
            }
            let outcome = await webhook.attempt(entry.notice)
            record(outcome, of: entry, for: webhook.webhook)
        }
    }

    private func record(_ outcome: WebhookSink.Outcome, of entry: AlertOutboxEntry, for webhook: AlertSinksConfiguration.Webhook) {
        var entry = entry
        var metadata: Logger.Metadata = ["webhook": "\(webhook.name)", "key": "\(entry.notice.key)"]
        switch outcome {
        case .cancelled:
            return
        case .delivered(let status):
            pending[webhook.name]?[entry.fileName] = nil
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
                pending[webhook.name]?[entry.fileName] = nil
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
            pending[webhook.name]?[entry.fileName] = entry
            metadata["retryInSeconds"] = "\(delay)"
            logger.warning("alert webhook delivery failed; will retry", metadata: metadata)
            do { try outbox.save(entry) } catch {
                logger.error("could not update the alert outbox", metadata: ["webhook": "\(webhook.name)", "key": "\(entry.notice.key)", "error": "\(error)"])
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
                logger.warning("the alert outbox holds a delivery for a webhook that is not configured; it is kept until that webhook is back", metadata: ["webhook": "\(entry.sink)", "key": "\(entry.notice.key)"])
                continue
            }
            if pending[entry.sink]?[entry.fileName] == nil {
                pending[entry.sink, default: [:]][entry.fileName] = entry
                resumed += 1
            }
        }
        if resumed > 0 {
            logger.info("resuming alert webhook deliveries from the outbox", metadata: ["count": "\(resumed)", "outbox": "\(outbox.directory.path)"])
        }
    }
}
