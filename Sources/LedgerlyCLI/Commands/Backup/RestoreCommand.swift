import ArgumentParser
import FoundationEssentials
import Glibc
import LedgerlyRuntime

/// `ledgerly restore FILE`: puts a backup (from `ledgerly backup`) back in place of the database.
/// The store must be stopped: the restore is done by `ledgerly-store --restore`, the only program
/// that opens the database, which keeps a copy of the database it replaces and gives the restored
/// one a new epoch, so the rates and alerts services replay its history when the store is back.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup made by `ledgerly backup` back in place of the database (stop ledgerly-store first).",
        discussion: """
            The backup is checked first (integrity, a Ledgerly database, not from a newer version); the database it \
            replaces is kept in <home>/backups/. Start ledgerly-store again afterwards: the other services see the \
            restored ledger as a new history and replay it (alerts it already holds are not raised again).
            A JSON export is put back with `ledgerly import json` instead.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The backup file.", completion: .file()) var file: String

    func run() throws {
        try CommandRunner.run {
            let home = LedgerlyHome.resolve(explicit: global.home)
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIFailure(message: "\(file) does not exist", status: .refused)
            }
            let gateway = try Gateway(global)
            if case .success = gateway.status(of: .store) {
                throw CLIFailure(message: "\(LedgerlyService.store.name) is running on \(home.root.path); a restore replaces its database, so stop it first", status: .refused,
                                 hint: "stop the store (deploy/stop.sh, or systemctl --user stop \(LedgerlyService.store.name)), run this again, then start it")
            }
            let store = try Self.storeExecutable()
            let restore = try ChildProcess.run(store.path, ["--home", home.root.path, "--restore", path], capture: false)
            guard restore.status == 0 else {
                throw ExitCode(restore.status == 64 ? ExitStatus.usage.rawValue : ExitStatus.refused.rawValue)
            }
        }
    }

    /// `ledgerly-store` beside this executable (installed together), else on the PATH.
    static func storeExecutable() throws -> URL {
        let own = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let beside = own.deletingLastPathComponent().appendingPathComponent(LedgerlyService.store.name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(LedgerlyService.store.name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CLIFailure(message: "cannot find the \(LedgerlyService.store.name) program beside \(own.path) or on the PATH", status: .failure)
    }
}
