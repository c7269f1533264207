import Foundation
import Logging
import ServiceLifecycle

/// Runs one service in a `ServiceGroup` that shuts it down gracefully on SIGTERM or SIGINT,
/// and turns a startup failure (lock held, database unreadable) into a clear line and exit 1.
public enum ServiceLauncher {
    public static func run(_ service: some Service, name: String, logger: Logger) async -> Never {
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
            exit(0)
        } catch {
            logger.critical("\(name) stopped: \(error)")
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }
}
