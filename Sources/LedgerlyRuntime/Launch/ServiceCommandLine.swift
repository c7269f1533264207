import Foundation

/// The command line every service executable accepts: `--home PATH`, `--help`, `--version`,
/// plus service-specific `--name value` options. Services are started by supervisor or systemd,
/// so this stays small and has no dependency on the CLI's argument parser.
public struct ServiceCommandLine: Sendable {
    public var home: String?
    public var options: [String: String] = [:]

    /// Parses `arguments` (without the program name). Prints help or the version and exits for
    /// `--help` / `--version`; prints the problem and exits 64 (EX_USAGE) on a bad argument.
    public static func parse(_ arguments: [String], service: String, summary: String, extraOptions: [(name: String, help: String)] = []) -> ServiceCommandLine {
        var parsed = ServiceCommandLine()
        var iterator = arguments.makeIterator()
        let known = Set(["--home"] + extraOptions.map(\.name))
        while let argument = iterator.next() {
            switch argument {
            case "--help", "-h":
                var text = "\(service): \(summary)\n\nUSAGE: \(service) [--home PATH]\n\nOPTIONS:\n"
                text += "  --home PATH       data directory (default: $\(LedgerlyHome.environmentVariable), $XDG_DATA_HOME/ledgerly, ~/.local/share/ledgerly)\n"
                for option in extraOptions { text += "  \(option.name.padding(toLength: 18, withPad: " ", startingAt: 0))\(option.help)\n" }
                text += "  --version         print the version\n  --help            print this help\n\nSIGTERM or SIGINT shuts down gracefully. Exit codes: 0 stopped, 1 failed, 64 bad arguments.\n"
                print(text, terminator: "")
                exit(0)
            case "--version":
                print("\(service) \(LedgerlyVersion.current)")
                exit(0)
            case let name where known.contains(name):
                guard let value = iterator.next() else { fail(service, "\(name) needs a value") }
                if name == "--home" { parsed.home = value } else { parsed.options[name] = value }
            default:
                fail(service, "unknown argument '\(argument)' (see --help)")
            }
        }
        return parsed
    }

    private static func fail(_ service: String, _ message: String) -> Never {
        FileHandle.standardError.write(Data("\(service): \(message)\n".utf8))
        exit(64)
    }
}
