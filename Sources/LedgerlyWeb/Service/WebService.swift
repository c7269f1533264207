import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import LedgerlyRuntime
import Logging
import NIOCore
import ServiceLifecycle
import ZeroMQ

/// ledgerly-web's parts, run together in the process's one `ServiceGroup`: the HTTP server and
/// the watch on the store's change events that feeds `/events` (D510, D515). On a loopback
/// address the server speaks plain HTTP; on any other it speaks HTTPS only, with the home's
/// self-signed certificate (D590), so plain HTTP to that port gets no answer.
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
        // Sign-in links, pairing codes and sessions are timed on the real clock: the CLI that
        // issues them does not know this service's `--clock-offset` (D596).
        let access = WebAccess(home: home, secure: !listen.isLoopback)
        tickets.sweep(now: access.now())
        access.pairingCodes.sweep(now: access.now())
        var server: HTTPServerBuilder = .http1()
        var fingerprint: String?
        if access.secure {
            let (certificate, created) = try WebCertificate.loadOrCreate(paths: WebAccessPaths(home: home), host: listen.host)
            if created { logger.notice("made a self-signed certificate", metadata: ["fingerprint": "\(certificate.fingerprint)"]) }
            fingerprint = certificate.fingerprint
            server = try .tls(.http1(), tlsConfiguration: certificate.serverConfiguration())
        }
        let served = fingerprint
        let app = WebApp(store: WebStore(home: home, context: context), sessions: SessionBook(), tickets: tickets, broadcaster: broadcaster, access: access, now: access.now)
        let application = Application(
            responder: app.responder(),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                let address = WebListenAddress(host: listen.isUnspecified ? Self.ownAddress() ?? listen.host : listen.host, port: port)
                let url = "\(access.secure ? "https" : "http")://\(address)"
                do {
                    try WebAddressFile.write(home: home, address: url, pid: getpid(), fingerprint: served)
                    logger.notice("listening", metadata: ["address": "\(url)"])
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

    /// An IPv4 address of this computer other than loopback, for the address a phone opens when
    /// ledgerly-web listens on every address (`0.0.0.0`); nil when there is none.
    static func ownAddress() -> String? {
        let devices = (try? System.enumerateDevices()) ?? []
        return devices.compactMap { device -> String? in
            guard let socket = device.address, case .v4 = socket, let ip = socket.ipAddress, !ip.hasPrefix("127.") else { return nil }
            return ip
        }.first
    }
}
