import ArgumentParser
import FoundationEssentials
import Glibc
import LedgerlyFiles
import LedgerlyProtocol
import LedgerlyRuntime

/// `ledgerly web`: the browser front (ledgerly-web).
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Open Ledgerly's pages in a browser (ledgerly-web); pair and revoke devices on the home network.",
        subcommands: [WebOpenCommand.self, WebPairCommand.self, WebDevicesCommand.self, WebRevokeCommand.self])
}

/// The running ledgerly-web as its `run/web.address` tells: URL, pid and, under HTTPS, the
/// fingerprint of the certificate it serves.
struct RunningWeb {
    let url: String
    let pid: Int32
    let fingerprint: String?

    var isSecure: Bool { url.hasPrefix("https://") }

    /// The address file's service when its pid is a live ledgerly-web; nil otherwise. A pid alone
    /// is not enough (D598): after a crash or a reboot the number can belong to another process,
    /// and a sign-in link must never be printed for an address some other program now serves.
    static func find(home: LedgerlyHome) -> RunningWeb? {
        let path = home.runDirectory.appendingPathComponent("web.address").path
        guard let file = try? PosixFile.reading(path), let data = try? file.readToEnd() else { return nil }
        try? file.close()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[0].hasPrefix("http://") || lines[0].hasPrefix("https://"), let pid = Int32(lines[1]), pid > 0,
              isLedgerlyWeb(pid: pid) else { return nil }
        return RunningWeb(url: lines[0], pid: pid, fingerprint: lines.count >= 3 ? lines[2] : nil)
    }

    /// Whether `pid` is alive and, where /proc tells, runs as ledgerly-web (its own binary, or the
    /// multi-call ledgerly-services started through a link of that name: both show that name).
    static func isLedgerlyWeb(pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
        guard let file = try? PosixFile.reading("/proc/\(pid)/comm"), let data = try? file.readToEnd() else { return false }
        try? file.close()
        return String(decoding: data, as: UTF8.self).filter { !$0.isNewline } == "ledgerly-web"
        #else
        return true
        #endif
    }

    static func notRunning() -> CLIFailure {
        CLIFailure(message: "ledgerly-web is not running", status: .unavailable,
                   hint: "start it with `ledgerly-web` (or deploy/start.sh, supervisord, systemd: `systemctl --user start ledgerly-web`)")
    }
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
            guard let web = RunningWeb.find(home: home) else { throw RunningWeb.notRunning() }
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
            print("\(web.url)/signin?token=\(token)")
            print("Open this link in a browser on this computer; it works once, for \(Self.ticketLifetimeSeconds / 60) minutes.")
            if let fingerprint = web.fingerprint {
                print("The browser will warn about the self-signed certificate; its SHA-256 fingerprint is \(fingerprint).")
            }
        }
    }

    /// The URL in `run/web.address` when the pid beside it is a live ledgerly-web; nil otherwise.
    static func runningAddress(home: LedgerlyHome) -> String? {
        RunningWeb.find(home: home)?.url
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

/// `ledgerly web pair`: a pairing code for a phone or another computer on the home network
/// (D592), with the address to open (also as a QR code, D595) and the fingerprint of the
/// certificate ledgerly-web serves, to compare with what the phone's browser shows.
struct WebPairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Print a pairing code, the address (and its QR code) and the certificate's fingerprint for a phone.",
        discussion: """
        ledgerly-web must listen beyond loopback (--listen 0.0.0.0:PORT, HTTPS). Open the address on the phone, check \
        that its browser shows the same SHA-256 fingerprint for the certificate, and enter the code on the pairing page: \
        the phone stays signed in until `ledgerly web revoke`. A code works once, for 10 minutes; the pairing page allows \
        5 attempts a minute from one address and 10 from all. Exits 3 when ledgerly-web is not running.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("no-qr"), help: "Leave out the QR code.")
    var noQR = false

    struct Pairing: Encodable {
        let address: String
        let fingerprint: String
        let code: String
        let expiresAt: String
    }

    func run() throws {
        try CommandRunner.run {
            let home = LedgerlyHome.resolve(explicit: global.home)
            guard let web = RunningWeb.find(home: home) else { throw RunningWeb.notRunning() }
            guard web.isSecure, let fingerprint = web.fingerprint else {
                throw CLIFailure(message: "ledgerly-web serves this computer only (\(web.url)): pairing is for the home network, over HTTPS", status: .refused,
                                 hint: "start it with `--listen 0.0.0.0:8470` (or {\"listen\": \"0.0.0.0:8470\"} in web.json) to serve the home network; on this computer, `ledgerly web open` signs a browser in")
            }
            let issued: PairingCodeFolder.Issued
            do {
                issued = try PairingCodeFolder(home: home).issue(now: Int64(Date().timeIntervalSince1970))
            } catch {
                throw CLIFailure(message: "cannot write the pairing code: \(error)", status: .failure)
            }
            let address = "\(web.url)/pair"
            let code = PairingCode.display(issued.code)
            let expires = Timestamp.string(milliseconds: issued.expiresAt * 1_000)
            if output.json {
                try JSONOutput.print(Pairing(address: address, fingerprint: fingerprint, code: code, expiresAt: expires))
                return
            }
            let style = TerminalStyle.standardOutput
            print("On the phone (or another computer on the home network):")
            print("  1. Open \(address)\(noQR ? "" : " (or scan the QR code below).")")
            print("  2. Its browser warns about the certificate: Ledgerly made it itself. Go on only if it shows this SHA-256 fingerprint:")
            print("     \(fingerprint)")
            print("  3. Enter the code \(style.bold(code)) (it works once, until \(expires), \(PairingCode.lifetimeSeconds / 60) minutes).")
            if !noQR {
                guard let symbol = QRCode(address) else {
                    print("(The address is too long for the QR code; type it.)")
                    return
                }
                print("")
                for line in symbol.terminalLines(colored: CommandOutput.current.outputColored) { print(line) }
            }
        }
    }
}

/// `ledgerly web devices`: the paired devices (D594), from the home's files (ledgerly-web need
/// not run).
struct WebDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the devices paired with ledgerly-web (name, paired at, last seen).",
        discussion: "Last seen moves at most once a minute. `ledgerly web revoke ID` locks a device out.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    struct Device: Encodable {
        let id: String
        let name: String
        let userAgent: String
        let pairedAt: String
        let lastSeenAt: String
    }

    struct Listing: Encodable { let devices: [Device] }

    func run() throws {
        try CommandRunner.run {
            let home = LedgerlyHome.resolve(explicit: global.home)
            let devices = PairedDeviceBook(home: home).list().map {
                Device(id: $0.id, name: $0.name, userAgent: $0.userAgent, pairedAt: Timestamp.string(milliseconds: $0.pairedAt * 1_000),
                       lastSeenAt: Timestamp.string(milliseconds: $0.lastSeenAt * 1_000))
            }
            if output.json {
                try JSONOutput.print(Listing(devices: devices))
                return
            }
            guard !devices.isEmpty else {
                print("No paired devices. `ledgerly web pair` pairs one.")
                return
            }
            var table = Table([.init("ID"), .init("NAME"), .init("PAIRED AT"), .init("LAST SEEN")])
            for device in devices { table.add([device.id, device.name, device.pairedAt, device.lastSeenAt]) }
            print(table.render(), terminator: "")
        }
    }
}

/// `ledgerly web revoke ID`: removes a paired device; its next request gets the sign-in page.
struct WebRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a paired device: its next request gets the sign-in page.",
        discussion: "ID as `ledgerly web devices` lists it. Exits 1 when no device has that id.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's id.") var id: String

    func run() throws {
        try CommandRunner.run {
            let home = LedgerlyHome.resolve(explicit: global.home)
            let book = PairedDeviceBook(home: home)
            guard let device = book.list().first(where: { $0.id == id }), book.revoke(id: id) else {
                throw CLIFailure(message: "no paired device has the id '\(id)'", status: .refused, hint: "`ledgerly web devices` lists them")
            }
            print("Revoked \(device.id) '\(device.name)': its next request gets the sign-in page.")
        }
    }
}
