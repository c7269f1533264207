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
///
/// Asset prices are fetched in the same refreshes (`PriceRefresher`), and a second drop-folder
/// watcher takes price files (`PriceDropFolderFeed`).
///
/// It is up to five services run together in the process's one `ServiceGroup`: the change
/// follower (which also answers requests), the refresh schedule, the drop-folder watcher and the
/// one-off cleanup of removed providers. Only the follower's end ends the process: the others may
/// be switched off in `rates.json` or, like the cleanup, finish their work.
public struct RatesService: Sendable {
    public static let service = LedgerlyService.rates

    /// In start order; stopped in reverse, so the follower, which holds the instance lock, stops
    /// last, and the cleanup, which may end on its own, is out of the way first.
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]

    /// Creates the process's one ZeroMQ context, shared by the follower and the store client.
    public init(home: LedgerlyHome, clock: ServiceClock = .system, logger: Logger) throws {
        let configuration = try RatesConfiguration.load(from: home)
        let context = try ZMQContext()
        let store = AsyncRequestClient(.store, home: home, context: context, timing: .ratesToStore)
        let refresher = RateRefresher(configuration: configuration, store: store, client: HTTPClient.shared, clock: clock, logger: logger)
        let wakeup = WakeupSignal()
        let follower = ChangeFollower(
            service: Self.service, home: home, context: context,
            consumer: RatesChangeConsumer(log: LoggingChangeConsumer(logger: logger), wakeup: wakeup), logger: logger,
            routes: Self.routes(refresher: refresher))
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: follower)]
        if configuration.effectiveSchedule.isEnabled {
            services.append(.init(service: RateSchedule(refresher: refresher, wakeup: wakeup, ready: follower.ready), successTerminationBehavior: .ignore))
        }
        let dropFolder = configuration.effectiveDropFolder
        if dropFolder.enabled != false {
            let feed = DropFolderFeed(store: store, profileName: dropFolder.profile ?? "parallel", clock: clock, logger: logger)
            let watcher = DropFolderWatcher(folder: dropFolder.folder(in: home), deliver: { file, rates async throws(DropFolderDeliveryError) -> Int in
                try await feed.deliver(file: file, rates: rates)
            })
            services.append(.init(
                service: DropFolderService(watcher: watcher, record: { await feed.record($0) }, interval: .milliseconds(Int64((dropFolder.scanSeconds ?? 2) * 1_000)), ready: follower.ready),
                successTerminationBehavior: .ignore))
        }
        let prices = configuration.effectivePrices
        let priceFolder = prices.effectiveDropFolder
        if priceFolder.enabled != false {
            let feed = PriceDropFolderFeed(store: store, clock: clock, logger: logger)
            let watcher = DropFolderWatcher(folder: priceFolder.folder(in: home), noun: "prices") { file, data, stamp in
                await feed.apply(file: file, data: data, stamp: stamp)
            }
            services.append(.init(
                service: DropFolderService(watcher: watcher, record: { await feed.record($0) }, interval: .milliseconds(Int64((dropFolder.scanSeconds ?? 2) * 1_000)), ready: follower.ready),
                successTerminationBehavior: .ignore))
        }
        var configured = Set(configuration.providers.map(\.name))
        if dropFolder.enabled != false { configured.insert(DropFolderFeed.source) }
        configured.formUnion(PriceRefresher.statusNames)
        if priceFolder.enabled != false { configured.insert(PriceSource.dropFolderStatusName) }
        services.append(.init(service: RemovedProviderCleanup(configured: configured, store: store, ready: follower.ready, logger: logger), successTerminationBehavior: .ignore))
        self.services = services
        logger.info("providers", metadata: [
            "providers": "\(configuration.providers.map { "\($0.name)→\($0.profile)" }.joined(separator: ", "))",
            "schedule": "\(configuration.effectiveSchedule.isEnabled ? "on" : "off")",
            "dropFolder": "\(dropFolder.enabled == false ? "off" : dropFolder.folder(in: home).path)",
            "prices": "\(prices.isEnabled ? "on" : "off")",
            "alphaVantage": "\(prices.alphaVantage?.apiKey == nil ? "no key" : "quota \(prices.dailyQuota)/day")",
            "finnhub": "\(prices.isFinnhubEnabled ? "on" : "off")",
            "priceDropFolder": "\(priceFolder.enabled == false ? "off" : priceFolder.folder(in: home).path)",
        ])
    }

    /// The rates service's own requests: `rates.refresh`.
    private static func routes(refresher: RateRefresher) -> RequestRoutes<ServiceRequestHandler> {
        var routes = RequestRoutes<ServiceRequestHandler>(service: service.name)
        routes.add(RatesRefreshRequest.self, answer: { _ in try await refresher.refreshAll() })
        return routes
    }
}
