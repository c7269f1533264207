import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-sync`: moves sealed change messages between the store and the hub (docs/sync.md).
/// It follows the store's change log (a change wakes a round), runs rounds on a schedule with
/// back-off, and answers `sync.connect`, `sync.now`, `sync.rekey` and `sync.devices` on its own socket. With sync off it only
/// follows and answers: nothing is sent anywhere.
public struct SyncService: Sendable {
    public static let service = LedgerlyService.sync

    public let services: [ServiceGroupConfiguration.ServiceConfiguration]

    /// `interval`: between rounds while all is well; `kdfCost`: the scrypt cost of a new ledger's
    /// key (tests use a cheap one, said out loud, never silently).
    public init(home: LedgerlyHome, logger: Logger, interval: Duration = .seconds(5), longestWait: Duration = .seconds(300),
                kdfCost: KDFParameters.Cost = .standard) throws {
        let context = try ZMQContext()
        // Long enough for a `sync.apply` of a whole batch or a first stamp of a large ledger.
        let store = AsyncRequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 30_000, attempts: 3))
        let round = SyncRound(home: home, store: store, logger: logger)
        let wakeup = WakeupSignal()
        let connector = SyncConnector(home: home, store: store, cost: kdfCost, logger: logger)
        var routes = RequestRoutes<ServiceRequestHandler>(service: Self.service.name)
        routes.add(SyncConnectRequest.self, answer: { request in
            let status = try await connector.connect(request)
            wakeup.notify()
            return status
        })
        routes.add(SyncNowRequest.self, answer: { _ in
            guard let outcome = await round.run(force: true) else { throw ErrorBody(code: .conflict, message: "sync is off on this device (`ledgerly sync enable`)") }
            return outcome
        })
        let rekeyer = SyncRekeyer(home: home, store: store, round: round, cost: kdfCost, logger: logger)
        routes.add(SyncRekeyRequest.self, answer: { request in
            let reply = try await rekeyer.rekey(request)
            wakeup.notify()
            return reply
        })
        let lister = SyncDeviceLister(home: home, logger: logger)
        routes.add(SyncDevicesRequest.self, answer: { _ in try await lister.devices() })
        let follower = ChangeFollower(service: Self.service, home: home, context: context, consumer: SyncChangeConsumer(wakeup: wakeup), logger: logger, routes: routes)
        services = [
            .init(service: follower),
            .init(service: SyncSchedule(round: round, wakeup: wakeup, ready: follower.ready, interval: interval, longestWait: longestWait)),
        ]
    }
}
