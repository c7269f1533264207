import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs one service in a `ServiceGroup` that shuts it down gracefully on SIGTERM or SIGINT,
/// and turns a startup failure (lock held, database unreadable) into a clear line and exit 1.
public enum ServiceLauncher {
    public static func run(_ service: some Service, name: String, logger: Logger) async -> Never {
        // Files a service creates (database, WAL, cursors, locks) are the owner's alone, whatever
        // the login shell's umask; the home folder itself is already 0700.
        umask(0o077)
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
            exit(0)
        } catch {
            // One plain line: under supervisor it lands in the service log, on a terminal it reads well.
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }
}
