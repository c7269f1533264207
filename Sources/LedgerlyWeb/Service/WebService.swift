import Foundation
import Hummingbird
import LedgerlyRuntime
import Logging
import NIOCore
import ServiceLifecycle
import ZeroMQ

/// ledgerly-web's parts, run together in the process's one `ServiceGroup`: the HTTP server and
/// the watch on the store's change events that feeds `/events` (D510, D515).
public struct WebService: Sendable {
    public static let name = "ledgerly-web"

    public let services: [ServiceGroupConfiguration.ServiceConfiguration]
    /// Held for the process's life: one ledgerly-web per home.
    let lock: InstanceLock

    public init(home: LedgerlyHome, listen: WebListenAddress, clock: ServiceClock, logger: Logger) throws {
        lock = try InstanceLock(path: home.lockDirectory.appendingPathComponent("\(Self.name).lock").path)
        let context = try ZMQContext()
        let broadcaster = ChangeBroadcaster()
        let tickets = SignInTickets(home: home)
        try FileManager.default.createDirectory(at: tickets.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let now: @Sendable () -> Int64 = { Int64(clock.now().timeIntervalSince1970) }
        tickets.sweep(now: now())
        let app = WebApp(store: WebStore(home: home, context: context), sessions: SessionBook(), tickets: tickets, broadcaster: broadcaster, now: now)
        let application = Application(
            responder: app.responder(),
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                let address = WebListenAddress(host: listen.host, port: port)
                do {
                    try WebAddressFile.write(home: home, address: "http://\(address)", pid: getpid())
                    logger.notice("listening", metadata: ["address": "http://\(address)"])
                } catch {
                    logger.error("could not record the address", metadata: ["error": "\(error)"])
                }
            },
            logger: logger)
        // Stopped in reverse order: the watch first, which ends every open `/events` stream, so
        // the server's graceful shutdown does not wait on browsers that keep a page open.
        services = [
            .init(service: application, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: StoreChangeWatch(home: home, context: context, broadcaster: broadcaster, logger: logger)),
        ]
    }
}
