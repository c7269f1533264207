import ArgumentParser
import FoundationEssentials
import Glibc
import LedgerlyRuntime

/// `ledgerly config check|paths|init`: the configuration files, where everything lives, and
/// commented files to start from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check the configuration files, show where Ledgerly keeps things, write commented files to start from.",
        subcommands: [Check.self, Paths.self, Init.self])

    /// The services that read a configuration file, with the file's name.
    static let configured: [(service: LedgerlyService, file: String)] = [(.rates, "rates.json"), (.alerts, "alerts.json")]

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Check rates.json and alerts.json with the services' own readers.",
            discussion: "Exit 0 when every file is good or absent, 1 when one has a problem (each is printed).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try CommandRunner.run {
                var failed = false
                for (service, _) in ConfigCommand.configured {
                    let program = OwnExecutable.sibling(service.name)
                    guard FileManager.default.isExecutableFile(atPath: program) else {
                        throw CLIFailure(message: "\(program) is missing: it checks \(service.name)'s file", status: .failure)
                    }
                    let check = try ChildProcess.run(program, ["--check-config"] + (global.home.map { ["--home", $0] } ?? []), capture: true)
                    let said = String(decoding: check.output, as: UTF8.self)
                    let problems = String(decoding: check.errors, as: UTF8.self)
                    print(said, terminator: "")
                    if check.status != 0 {
                        failed = true
                        CommandOutput.current.writeError(problems)
                    }
                }
                if failed { throw CLIFailure(message: "the configuration has problems (above)", status: .refused) }
            }
        }
    }

    struct Paths: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "paths", abstract: "Where the data, configuration, state, logs and sockets are.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let home = LedgerlyHome.resolve(explicit: global.home)
            let rows: [(String, String)] = [
                ("data", home.root.path), ("config", home.configDirectory.path), ("state", home.stateDirectory.path),
                ("logs", home.logDirectory.path), ("sockets", home.runDirectory.path),
            ]
            if output.json {
                try CommandRunner.run {
                    try JSONOutput.print(HomePaths(data: home.root.path, config: home.configDirectory.path, state: home.stateDirectory.path,
                                                   logs: home.logDirectory.path, sockets: home.runDirectory.path, layout: home.followsXDG ? "xdg" : "one folder"))
                }
                return
            }
            var list = DetailList()
            for (label, path) in rows { list.add(label, path) }
            list.add("layout", home.followsXDG ? "XDG base directories (the default home)" : "one folder (a home named with --home or LEDGERLY_HOME)")
            print(list.render(), terminator: "")
        }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Write commented rates.json and alerts.json (the defaults, every setting explained) where they are read.",
            discussion: "An existing file is left as it is.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try CommandRunner.run {
                let home = LedgerlyHome.resolve(explicit: global.home)
                try FileManager.default.createDirectory(at: home.configDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                for (name, text) in [("rates.json", ConfigTemplates.rates), ("alerts.json", ConfigTemplates.alerts)] {
                    let file = home.configDirectory.appendingPathComponent(name)
                    if let unmoved = home.unmovedConfiguration(name) {
                        print("\(unmoved.path): yours, moved to \(file.path) at the next start; no template written")
                        continue
                    }
                    if FileManager.default.fileExists(atPath: file.path) {
                        print("\(file.path): exists, left as it is")
                        continue
                    }
                    guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                        throw CLIFailure(message: "could not write \(file.path)", status: .failure)
                    }
                    print("\(file.path): written")
                }
            }
        }
    }
}

/// `ledgerly config paths --json`.
struct HomePaths: Encodable {
    let data, config, state, logs, sockets, layout: String
}
