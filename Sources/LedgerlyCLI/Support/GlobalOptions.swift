import ArgumentParser
import LedgerlyRuntime

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Ledgerly's data directory.", discussion: "Default: $LEDGERLY_HOME, else $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly.", valueName: "path"))
    var home: String?

    @Option(name: .long, help: ArgumentHelp("Milliseconds to wait for a service before retrying (3 tries in all).", valueName: "ms"))
    var timeout: Int = ClientTiming.standard.timeoutMilliseconds
}

/// `--json` for read commands: print the reply body as JSON instead of a table.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON (the protocol's reply body) instead of a table.")
    var json = false
}
