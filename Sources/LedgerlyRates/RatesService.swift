import AsyncHTTPClient
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-rates`: follows the store's change log, refreshes the configured providers on a
/// schedule (and at once when a currency comes into use), answers `rates.refresh`, and watches
/// the drop folder. Everything it learns goes to the store; it keeps no database of its own.
public final class RatesService: Service {
    public static let name = LedgerlyService.rates.name

    private let follower: ChangeFollower
    private let refresher: RateRefresher
    private let wakeup: WakeupSignal
    private let configuration: RatesConfiguration
    private let home: LedgerlyHome
    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger

    public init(home: LedgerlyHome, clock: ServiceClock = .system, logger: Logger) throws {
        let configuration = try RatesConfiguration.load(from: home)
        let store = AsyncRequestClient(.store, home: home, context: try ZMQContext(), timing: .ratesToStore)
        let refresher = RateRefresher(configuration: configuration, store: store, client: HTTPClient.shared, clock: clock, logger: logger)
        let wakeup = WakeupSignal()
        self.configuration = configuration
        self.refresher = refresher
        self.wakeup = wakeup
        self.home = home
        self.store = store
        self.clock = clock
        self.logger = logger
        self.follower = ChangeFollower(
            service: Self.name, statusEndpoint: home.ratesCommandEndpoint, home: home,
            consumer: RatesChangeConsumer(log: LoggingChangeConsumer(logger: logger), wakeup: wakeup), logger: logger,
            requestHandler: { header, frame in await Self.answer(header, frame, refresher: refresher) })
        logger.info("providers", metadata: [
            "providers": "\(configuration.providers.map { "\($0.name)→\($0.profile)" }.joined(separator: ", "))",
            "schedule": "\(configuration.effectiveSchedule.isEnabled ? "on" : "off")",
            "dropFolder": "\(configuration.effectiveDropFolder.enabled == false ? "off" : configuration.effectiveDropFolder.folder(in: home).path)",
        ])
    }

    /// The follower runs until graceful shutdown; the schedule and the drop folder run beside it
    /// and are cancelled when it returns.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Side work may end on its own (forgetting removed providers is done once); only the
            // follower's end, at shutdown or when its sockets are gone, ends the service.
            group.addTask { await self.forgetRemovedProviders() }
            if configuration.effectiveSchedule.isEnabled {
                group.addTask { await self.runSchedule() }
            }
            if configuration.effectiveDropFolder.enabled != false {
                group.addTask { await self.watchDropFolder() }
            }
            defer { group.cancelAll() }
            try await self.follower.run()
        }
    }

    /// Side work starts only once the follower holds the instance lock, so a second instance
    /// started by mistake fails before it fetches anything or moves a user's file.
    private func runSchedule() async {
        guard await follower.waitUntilReady() else { return }
        while !Task.isCancelled {
            let wait = await refresher.refreshDue()
            await wakeup.wait(upTo: wait)
        }
    }

    /// A provider taken out of `rates.json` would otherwise stay in the store's status, failing
    /// as it last did, forever. Once per start, after the follower holds the lock, every status
    /// the store keeps for a provider this configuration does not have is forgotten (retried
    /// until the store answers).
    private func forgetRemovedProviders() async {
        guard await follower.waitUntilReady() else { return }
        var configured = Set(configuration.providers.map(\.name))
        if configuration.effectiveDropFolder.enabled != false { configured.insert(DropFolderFeed.source) }
        while !Task.isCancelled {
            do {
                for status in try await store.call(RateProviderListRequest()).providers where !configured.contains(status.name) {
                    _ = try await store.call(RateProviderForgetRequest(name: status.name))
                    logger.notice("forgot a provider that is no longer configured", metadata: ["provider": "\(status.name)"])
                }
                return
            } catch {
                try? await Task.sleep(for: .seconds(2))
            }
        }
    }

    private func watchDropFolder() async {
        guard await follower.waitUntilReady() else { return }
        let settings = configuration.effectiveDropFolder
        let feed = DropFolderFeed(store: store, profileName: settings.profile ?? "parallel", clock: clock, logger: logger)
        let watcher = DropFolderWatcher(folder: settings.folder(in: home), deliver: { file, rates async throws(DropFolderDeliveryError) -> Int in
            try await feed.deliver(file: file, rates: rates)
        })
        // Each outcome is reported before the next file is read, so the store's status is in order.
        await watcher.run(every: .milliseconds(Int64((settings.scanSeconds ?? 2) * 1_000))) { outcome in
            await feed.record(outcome)
        }
    }

    /// The rates service's own requests: `rates.refresh`.
    private static func answer(_ header: EnvelopeHeader, _ frame: Data, refresher: RateRefresher) async -> Data {
        guard header.type == MessageType.ratesRefresh.rawValue else {
            return ReplyBuilder.error(ErrorBody(code: .unknownType, message: "\(name) answers status and rates.refresh, not \(InputEcho.quoted(header.type))", field: "type"), re: header.id)
        }
        do {
            _ = try RequestDecoding.request(RatesRefreshRequest.self, from: frame)
            return ReplyBuilder.ok(RatesRefreshReply(providers: try await refresher.refreshAll()), for: header)
        } catch let error as ErrorBody {
            return ReplyBuilder.error(error, re: header.id)
        } catch let error as ClientError {
            return ReplyBuilder.error(error.errorBody, re: header.id)
        } catch {
            return ReplyBuilder.error(ErrorBody(code: .internal, message: "\(error)"), re: header.id)
        }
    }
}
