import Foundation
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs ledgerly-web's services until SIGTERM or SIGINT, as `ServiceLauncher` runs the ledger's
/// services (same umask, same one-line failures), without its `LedgerlyService` name: the web
/// front is not one of the services the store's clients and harnesses enumerate (D510).
/// SIGHUP is logged and ignored: ledgerly-web has nothing to reload without a restart.
public enum WebLauncher {
    public static func run(_ web: WebService, home: LedgerlyHome, logger: Logger) async -> Never {
        umask(0o077)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: web.services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let watcher = Task {
            for await _ in hangups { logger.notice("SIGHUP: \(WebService.name) reads web.json only at start; restart it to apply a change") }
        }
        do {
            try await group.run()
            watcher.cancel()
            WebAddressFile.remove(home: home)
            withExtendedLifetime(web.lock) {}
            exit(0)
        } catch {
            WebAddressFile.remove(home: home)
            fail("\(error)")
        }
    }

    /// The home with its folders made (and a default home of an older version moved, each move
    /// logged), as `ServiceOptions.preparedHome` does for the other services; a home that cannot
    /// be prepared ends the process with one line.
    public static func prepared(_ home: LedgerlyHome, logger: Logger) -> LedgerlyHome {
        do {
            for line in try home.prepare() { logger.notice("\(line)") }
        } catch {
            fail("\(error)")
        }
        return home
    }

    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(WebService.name): \(message)\n".utf8))
        exit(1)
    }
}
