import FoundationEssentials
import LedgerlyFiles
#if canImport(Glibc)
import Glibc
#endif
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Runs a process's services in one `ServiceGroup` that shuts them down gracefully on SIGTERM or
/// SIGINT, restarts them in place on SIGHUP when the configuration is good, and turns a failure
/// (lock held, database unreadable, sockets lost) into one clear line and exit 1.
///
/// Services are listed in start order and stopped in reverse (swift-service-lifecycle's rule):
/// a process lists the service holding its instance lock first, so it stops last and no
/// second instance can start while work that the lock guards is still running.
public enum ServiceLauncher {
    /// Runs `services` until SIGTERM or SIGINT. SIGHUP reloads the configuration: `reloadCheck`
    /// reads and checks the configuration files again and returns what is wrong with them (nil
    /// when they are good). Good files make the process stop gracefully, as for SIGTERM, and start
    /// again in place (`execv` of its own binary with the same arguments, so its supervisor sees
    /// the same pid); bad ones are logged and the process keeps running as it was. A service
    /// without configuration (`reloadCheck` nil) logs that there is nothing to reload.
    ///
    /// Why a restart and not a reload in place: the configuration shapes which services run (a
    /// schedule switched off, another webhook), and every service already survives a restart
    /// without losing or repeating anything (cursors, the outbox, exactly-once alert keys), so
    /// starting afresh is the one path that is already tested for every setting (D327).
    public static func run(_ services: [ServiceGroupConfiguration.ServiceConfiguration], as service: LedgerlyService, logger: Logger,
                           reloadCheck: (@Sendable () -> String?)? = nil) async -> Never {
        // Files a service creates (database, WAL, cursors, locks) are the owner's alone, whatever
        // the login shell's umask; the home folder itself is already 0700.
        umask(0o077)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let reload = ReloadRequest()
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        // A SIGTERM or SIGINT while a reload is stopping the services means stop, not restart.
        let stops = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let stopWatcher = Task {
            for await _ in stops { reload.cancel() }
        }
        let watcher = Task {
            for await _ in hangups {
                guard let reloadCheck else {
                    logger.notice("SIGHUP: \(service.name) has no configuration to reload")
                    continue
                }
                if let problem = reloadCheck() {
                    logger.error("SIGHUP: the configuration was not reloaded, the service runs on as it was: \(problem)")
                    continue
                }
                logger.notice("SIGHUP: the configuration is good; restarting to apply it")
                reload.request()
                await group.triggerGracefulShutdown()
                return
            }
        }
        do {
            try await group.run()
            watcher.cancel()
            stopWatcher.cancel()
            if reload.isRequested { restartInPlace(service) }
            exit(0)
        } catch {
            fail(service, "\(error)")
        }
    }

    /// The start every service shares: logging set up, the home prepared (`ServiceOptions`), the
    /// services built by `build` (a failure is one line and exit 1), then `run`. `reloadCheck`
    /// reads the prepared home's configuration again on SIGHUP, as `run` describes.
    public static func launch(_ service: LedgerlyService, options: ServiceOptions, reloadCheck: (@Sendable (LedgerlyHome) -> String?)? = nil,
                              build: (LedgerlyHome, Logger) throws -> [ServiceGroupConfiguration.ServiceConfiguration]) async -> Never {
        let logger = LoggingSetup.bootstrap(service: service.name)
        let home = options.preparedHome(for: service, logger: logger)
        let services: [ServiceGroupConfiguration.ServiceConfiguration]
        do {
            services = try build(home, logger)
        } catch {
            fail(service, "\(error)")
        }
        var homeCheck: (@Sendable () -> String?)?
        if let reloadCheck { homeCheck = { reloadCheck(home) } }
        await run(services, as: service, logger: logger, reloadCheck: homeCheck)
    }

    /// `execv` of this process's own binary with its own arguments; a failure is one line and exit 1.
    private static func restartInPlace(_ service: LedgerlyService) -> Never {
        // The new image starts as a process started afresh would: every signal unblocked and at
        // its default action (this thread may be a pool thread with signals blocked, and the
        // signal handling set some to be ignored, and both would survive execv).
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD] { _ = Glibc.signal(signal, SIG_DFL) }
        let arguments = CommandLine.arguments
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv("/proc/self/exe", pointers)
        fail(service, "could not restart after SIGHUP: \(String(cString: strerror(errno)))")
    }

    /// One plain line and exit 1: under supervisor it lands in the service log, on a terminal it
    /// reads well.
    public static func fail(_ service: LedgerlyService, _ message: String) -> Never {
        try? PosixFile.standardError.write(Data("\(service.name): \(message)\n".utf8))
        exit(1)
    }
}

/// Whether a SIGHUP asked for a restart, read once the group has stopped; a SIGTERM or SIGINT
/// cancels it for good.
private final class ReloadRequest: Sendable {
    private let state = Mutex((requested: false, cancelled: false))
    func request() { state.withLock { if !$0.cancelled { $0.requested = true } } }
    func cancel() { state.withLock { $0 = (false, true) } }
    var isRequested: Bool { state.withLock { $0.requested } }
}
