import ArgumentParser
import FoundationEssentials
import Glibc
import LedgerlyFiles
import LedgerlyRuntime

/// `ledgerly web`: the browser front (ledgerly-web).
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Open Ledgerly's pages in a browser (ledgerly-web).",
        subcommands: [WebOpenCommand.self])
}

/// `ledgerly web open`: prints the address of the running ledgerly-web with a one-time sign-in
/// link (D511). The link's token is 256 random bits, handed to the service as a ticket file in
/// the home's `state/web-signin/` (0600 in a 0700 folder): it works once, for five minutes.
struct WebOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Print the address of ledgerly-web with a one-time sign-in link.",
        discussion: "Open the link in a browser on this computer: it signs that browser in and works once, for five minutes. Exits 3 when ledgerly-web is not running.")

    @OptionGroup var global: GlobalOptions

    /// Shared with `SignInTickets` in LedgerlyWeb, which reads what this writes.
    static let ticketFolder = "web-signin"
    static let ticketLifetimeSeconds: Int64 = 300

    func run() throws {
        try CommandRunner.run {
            let home = LedgerlyHome.resolve(explicit: global.home)
            guard let address = Self.runningAddress(home: home) else {
                throw CLIFailure(message: "ledgerly-web is not running", status: .unavailable,
                                 hint: "start it with `ledgerly-web` (or deploy/start.sh, supervisord, systemd: `systemctl --user start ledgerly-web`)")
            }
            let token = Self.token()
            let folder = home.stateDirectory.appendingPathComponent(Self.ticketFolder).path
            mkdir(folder, 0o700)
            chmod(folder, 0o700)
            let expires = Int64(Date().timeIntervalSince1970) + Self.ticketLifetimeSeconds
            let temporary = "\(folder)/.new-\(token)"
            do {
                let file = try PosixFile.creatingNew(temporary)
                try file.write(Data("\(expires)\n".utf8))
                try file.close()
            } catch {
                throw CLIFailure(message: "cannot write the sign-in ticket: \(error)", status: .failure)
            }
            guard rename(temporary, "\(folder)/\(token)") == 0 else {
                unlink(temporary)
                throw CLIFailure(message: "cannot write the sign-in ticket in \(folder)", status: .failure)
            }
            print("\(address)/signin?token=\(token)")
            print("Open this link in a browser on this computer; it works once, for \(Self.ticketLifetimeSeconds / 60) minutes.")
        }
    }

    /// The URL in `run/web.address` when the pid beside it is alive; nil otherwise.
    static func runningAddress(home: LedgerlyHome) -> String? {
        let path = home.runDirectory.appendingPathComponent("web.address").path
        guard let file = try? PosixFile.reading(path), let data = try? file.readToEnd() else { return nil }
        try? file.close()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[0].hasPrefix("http://"), let pid = Int32(lines[1]), pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return nil }
        return lines[0]
    }

    /// 256 random bits as 64 hex digits (getrandom(2) through `SystemRandomNumberGenerator`).
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
