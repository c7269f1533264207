import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs a process's services in one `ServiceGroup` that shuts them down gracefully on SIGTERM or
/// SIGINT, and turns a failure (lock held, database unreadable, sockets lost) into one clear line
/// and exit 1.
///
/// Services are listed in start order and stopped in reverse (swift-service-lifecycle's rule):
/// a process lists the service holding its instance lock first, so it stops last and no
/// second instance can start while work that the lock guards is still running.
public enum ServiceLauncher {
    public static func run(_ services: [ServiceGroupConfiguration.ServiceConfiguration], as service: LedgerlyService, logger: Logger) async -> Never {
        // Files a service creates (database, WAL, cursors, locks) are the owner's alone, whatever
        // the login shell's umask; the home folder itself is already 0700.
        umask(0o077)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
            exit(0)
        } catch {
            fail(service, "\(error)")
        }
    }

    /// One plain line and exit 1: under supervisor it lands in the service log, on a terminal it
    /// reads well.
    public static func fail(_ service: LedgerlyService, _ message: String) -> Never {
        FileHandle.standardError.write(Data("\(service.name): \(message)\n".utf8))
        exit(1)
    }
}
