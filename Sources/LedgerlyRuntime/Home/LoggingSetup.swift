import Logging
import FoundationEssentials

/// Configures swift-log once per process: lines to stderr (supervisor or systemd keep them),
/// level from `LEDGERLY_LOG_LEVEL` (trace, debug, info, notice, warning, error), info by default.
public enum LoggingSetup {
    public static func bootstrap(service: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["LEDGERLY_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: service)
    }
}
