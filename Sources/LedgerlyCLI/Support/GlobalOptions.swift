import ArgumentParser
import LedgerlyRuntime

/// Where the services are and how long to wait for them: what `Gateway` needs.
protocol ServiceAddress {
    var home: String? { get }
    var timeout: Int { get }
    /// `--no-start`: refuse, rather than start the services, when the store is not running.
    var noStart: Bool { get }
}

/// Options every command accepts: where Ledgerly is, and `--color`.
struct GlobalOptions: ParsableArguments, ServiceAddress {
    @OptionGroup var location: HomeOptions

    @Option(name: .long, help: ArgumentHelp(
        "auto, always or never (default auto).",
        discussion: "auto: colours on a terminal, unless NO_COLOR is set to a non-empty value or TERM is dumb.", valueName: "when"))
    var color: ColorChoice = .auto

    var home: String? { location.home }
    var timeout: Int { location.timeout }
    var noStart: Bool { location.noStart }

    /// The options of `command`, whichever command it is: every command holds them as
    /// `@OptionGroup var global`, which `LedgerlyCommand.run` reads for `--color` before running
    /// it (a command without them runs with `auto`).
    static func of(_ command: any ParsableCommand) -> GlobalOptions? {
        for child in Mirror(reflecting: command).children {
            if let group = child.value as? OptionGroup<GlobalOptions> { return group.wrappedValue }
        }
        return nil
    }
}

/// `--home` and `--timeout`: part of `GlobalOptions`, and alone the options of `category add`
/// and `category edit`, where `--color` has long been the category's own colour (#RRGGBB): their
/// one line of output follows `NO_COLOR` and `TERM` alone.
struct HomeOptions: ParsableArguments, ServiceAddress {
    @Option(name: .long, help: ArgumentHelp("Ledgerly's data directory.", discussion: "Default: $LEDGERLY_HOME, else $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly.", valueName: "path"), completion: .directory)
    var home: String?

    @Option(name: .long, help: ArgumentHelp("Milliseconds to wait for a service before retrying (3 tries in all).", valueName: "ms"))
    var timeout: Int = ClientTiming.standard.timeoutMilliseconds

    @Flag(name: .customLong("no-start"), help: ArgumentHelp(
        "Refuse instead of starting the services when the store is not running.",
        discussion: "Without it, a command that needs the store starts ledgerly-store, -rates and -alerts (and -sync once set up) when none runs for this home, and waits for the store. LEDGERLY_NO_START set to anything but the empty string does the same as this flag."))
    var noStart = false
}

/// `--color`: when output gets ANSI colours.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case auto, always, never
}

/// `--json` for read commands: print the reply body as JSON instead of a table.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON (the protocol's reply body) instead of a table.")
    var json = false
}
