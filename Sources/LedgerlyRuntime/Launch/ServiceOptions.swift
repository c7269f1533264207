import ArgumentParser
import Logging

/// The options every service executable accepts (`@OptionGroup` in each one's command), parsed by
/// the same library as the CLI so help, errors and exit codes read alike: a bad argument prints
/// the problem, names the option and exits 64 (EX_USAGE), which supervisor treats as fatal
/// instead of restarting the service in a loop.
public struct ServiceOptions: ParsableArguments {
    // `.unconditional`: a path or an offset may start with "-" (`--clock-offset -3600`).
    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("data directory", discussion: "Default: $\(LedgerlyHome.environmentVariable), else $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly.", valueName: "path"))
    public var home: String?

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("shift this service's clock by SECONDS (for tests and rehearsals)", valueName: "seconds"))
    public var clockOffset: Int64?

    public init() {}

    public func validate() throws {
        if let clockOffset, ServiceClock(validatingOffset: clockOffset) == nil {
            throw ValidationError("--clock-offset must be a whole number of seconds within 100 years, got '\(clockOffset)'")
        }
    }

    /// The home these options name, else the one the environment names; creates nothing.
    public var ledgerlyHome: LedgerlyHome { LedgerlyHome.resolve(explicit: home) }

    /// The home, prepared before anything reads it: its folders made, and a default home of an
    /// older version moved to the XDG places (each move logged), so the configuration is read
    /// from where it now is. A home that cannot be prepared ends the process with one line.
    public func preparedHome(for service: LedgerlyService, logger: Logger) -> LedgerlyHome {
        let home = ledgerlyHome
        do {
            for line in try home.prepare() { logger.notice("\(line)") }
        } catch {
            ServiceLauncher.fail(service, "\(error)")
        }
        return home
    }

    /// The clock `--clock-offset` asks for (validated already).
    public var clock: ServiceClock { clockOffset.map { ServiceClock(offsetSeconds: $0) } ?? .system }

    /// A service command's configuration: its name, one summary line, how it stops and exits, and
    /// `--version` printing `<service> <version>`.
    public static func configuration(for service: LedgerlyService, abstract: String) -> CommandConfiguration {
        CommandConfiguration(
            commandName: service.name,
            abstract: abstract,
            discussion: "SIGTERM or SIGINT shuts down gracefully. Exit codes: 0 stopped, 1 failed, 64 bad arguments.",
            version: "\(service.name) \(LedgerlyVersion.current)")
    }
}
