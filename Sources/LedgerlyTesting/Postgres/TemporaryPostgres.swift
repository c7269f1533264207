import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server of its own for a test suite: a new cluster in a temporary folder, made
/// with the Debian server binaries (`/usr/lib/postgresql/<version>/bin`, the highest version there),
/// listening on a free loopback TCP port and on a unix socket in that folder, with one database
/// and one user who logs in with a password (SCRAM over TCP). The Debian package's own cluster and
/// its service are not used, so whether they auto-start does not matter.
///
/// PostgreSQL refuses to run as root, so when the tests run as root every server command runs as
/// the `postgres` user (`runuser -u postgres --`) and the folder is handed to that user.
///
/// `tls: true` (the default) also makes a self-signed certificate for `localhost` and 127.0.0.1 with
/// openssl and turns `ssl` on; `certificatePath` is then the file to trust (`sslrootcert=`).
///
/// The password is also written to a libpq password file (`passwordFilePath`, mode 0600), and
/// `url()` names that file (`passfile=`) instead of carrying the password, so a test hands the
/// CLI an address as a person would: no password in `--url` (D431).
///
/// Fast rather than durable (`fsync`, `full_page_writes` and `synchronous_commit` off): a test
/// cluster is thrown away. `destroy()` stops it and removes the folder.
public final class TemporaryPostgres: Sendable {
    public let root: URL
    public let port: Int
    public let user = "ledgerly"
    public let password: String
    public let database = "ledgerly_hub"
    /// The folder holding the socket file `.s.PGSQL.<port>`.
    public let socketFolder: String
    /// The server's self-signed certificate, with `tls: true`.
    public let certificatePath: String?
    /// Its private key, with `tls: true` (for a test's own server that poses as this one).
    public var keyPath: String? { certificatePath == nil ? nil : root.appendingPathComponent("server.key").path }
    private let binaries: URL
    private let runAsPostgres: Bool

    /// `postgres://ledgerly@127.0.0.1:<port>/ledgerly_hub?sslmode=…&sslrootcert=…&passfile=…`: TLS
    /// verified against the cluster's own certificate (or `sslmode=disable` on a cluster without
    /// TLS), the password from `passwordFilePath`. `sslmode` overrides the mode; `trustCertificate:
    /// false` leaves `sslrootcert=` out (the system's roots, which do not hold the self-signed one);
    /// `withPassword: true` puts the password in the URL, as `hub.json` keeps it.
    public func url(host: String = "127.0.0.1", sslmode: String? = nil, trustCertificate: Bool = true, withPassword: Bool = false) -> String {
        let mode = sslmode ?? (certificatePath == nil ? "disable" : "verify-full")
        var parameters = ["sslmode=\(mode)"]
        if trustCertificate, mode != "disable", let certificatePath { parameters.append("sslrootcert=\(certificatePath)") }
        if !withPassword { parameters.append("passfile=\(passwordFilePath)") }
        let credentials = withPassword ? "\(user):\(password)" : user
        return "postgres://\(credentials)@\(host):\(port)/\(database)?" + parameters.joined(separator: "&")
    }

    /// A libpq password file (mode 0600) with the cluster's password for any host, this port and
    /// database, and the user.
    public var passwordFilePath: String { root.appendingPathComponent("pgpass").path }

    /// The same database through the unix socket.
    public var socketURL: String { "postgres://\(user):\(password)@/\(database)?host=\(socketFolder)&port=\(port)" }

    /// Makes the cluster, starts it, and creates the user and the database.
    public init(tls: Bool = true) throws {
        binaries = try Self.findBinaries()
        runAsPostgres = geteuid() == 0
        Self.removeOrphans(binaries: binaries, runAsPostgres: runAsPostgres)
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-pg-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw HarnessError.commandFailed("mkdtemp", String(cString: strerror(errno))) }
        root = URL(fileURLWithPath: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), isDirectory: true)
        socketFolder = root.appendingPathComponent("socket").path
        port = try Self.freeLoopbackPort()
        password = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
        certificatePath = tls ? root.appendingPathComponent("server.crt").path : nil

        do {
            try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: false)
            try Data("\(getpid())\n".utf8).write(to: root.appendingPathComponent(Self.ownerFile))
            try Data("*:\(port):\(database):\(user):\(password)\n".utf8).write(to: URL(fileURLWithPath: passwordFilePath))
            guard chmod(passwordFilePath, 0o600) == 0 else { throw HarnessError.commandFailed("chmod \(passwordFilePath)", String(cString: strerror(errno))) }
            if tls { try makeCertificate() }
            if runAsPostgres { try run("/bin/chown", ["-R", "postgres:postgres", root.path], asPostgres: false) }
            try run(binary("initdb"), [
                "-D", dataFolder, "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync",
                "--auth-local=trust", "--auth-host=scram-sha-256",
            ])
            try appendConfiguration(tls: tls)
            try start()
            try psql("CREATE ROLE \(user) LOGIN PASSWORD '\(password)'")
            try psql("CREATE DATABASE \(database) OWNER \(user)")
        } catch {
            destroy()
            throw error
        }
    }

    public func start() throws {
        try run(binary("pg_ctl"), ["-D", dataFolder, "-l", logPath, "-w", "-t", "30", "start"])
    }

    /// A fast shutdown: open connections are ended, as when the hub's administrator stops it.
    public func stop() throws {
        try run(binary("pg_ctl"), ["-D", dataFolder, "-w", "-t", "30", "-m", "fast", "stop"])
    }

    public func restart() throws {
        try stop()
        try start()
    }

    /// Runs SQL as the superuser through the socket and returns what psql printed (unaligned, no
    /// headers), for checks a test makes behind the client's back.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run(binary("psql"), [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketFolder, "-p", "\(port)",
            "-U", "postgres", "-d", database, "-c", sql,
        ])
    }

    /// Stops the server at once (if it runs) and removes the folder. Safe to call twice.
    public func destroy() {
        if FileManager.default.fileExists(atPath: dataFolder + "/postmaster.pid") {
            _ = try? run(binary("pg_ctl"), ["-D", dataFolder, "-w", "-t", "30", "-m", "immediate", "stop"])
        }
        try? FileManager.default.removeItem(at: root)
    }

    /// The server's log, for a failing test to print.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    private var dataFolder: String { root.appendingPathComponent("data").path }
    private var logPath: String { root.appendingPathComponent("server.log").path }
    private func binary(_ name: String) -> String { binaries.appendingPathComponent(name).path }

    private func appendConfiguration(tls: Bool) throws {
        var lines = [
            "listen_addresses = '127.0.0.1'",
            "port = \(port)",
            "unix_socket_directories = '\(socketFolder)'",
            "fsync = off",
            "synchronous_commit = off",
            "full_page_writes = off",
            "max_connections = 40",
            "shared_buffers = '16MB'",
            "password_encryption = 'scram-sha-256'",
        ]
        if tls, let certificatePath {
            lines += ["ssl = on", "ssl_cert_file = '\(certificatePath)'", "ssl_key_file = '\(root.appendingPathComponent("server.key").path)'"]
        }
        let path = dataFolder + "/postgresql.conf"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(("\n# TemporaryPostgres\n" + lines.joined(separator: "\n") + "\n").utf8))
    }

    private func makeCertificate() throws {
        let key = root.appendingPathComponent("server.key").path
        try run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", key, "-out", certificatePath!,
        ], asPostgres: false)
        // PostgreSQL refuses a key file others can read.
        guard chmod(key, 0o600) == 0 else { throw HarnessError.commandFailed("chmod \(key)", String(cString: strerror(errno))) }
    }

    /// Runs a command (as `postgres` when the tests run as root) and returns its output.
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`, not Foundation's `Process`: on Linux,
    /// `Process.waitUntilExit()` waits until every inheritor of a descriptor it hands the child has
    /// gone, and `pg_ctl start` leaves the server running, so it never returned. Output goes to a
    /// file, descriptors above 2 are closed in the child, so the server holds nothing of ours.
    @discardableResult
    private func run(_ executable: String, _ arguments: [String], asPostgres: Bool = true) throws -> String {
        let argv = asPostgres && runAsPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        let outputPath = root.appendingPathComponent(".command-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let status = try Self.spawnAndWait(argv, outputPath: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
        let exitedNormally = status & 0x7F == 0
        guard exitedNormally, (status >> 8) & 0xFF == 0 else {
            let command = ([executable] + arguments).joined(separator: " ").replacingOccurrences(of: password, with: "***")
            throw HarnessError.commandFailed(command, "status \(status): " + text + (executable.hasSuffix("pg_ctl") ? "\nserver log:\n" + log : ""))
        }
        return text
    }

    /// Runs `argv` with standard input from /dev/null and both outputs into `outputPath`, and
    /// returns its wait status.
    private static func spawnAndWait(_ argv: [String], outputPath: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeFrom3(&actions)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw HarnessError.commandFailed(argv[0], String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// Holds the pid of the test process that made the cluster.
    private static let ownerFile = "owner.pid"

    /// Stops and removes clusters left by test processes that died before their `destroy()` (a
    /// crash, a `kill`), so a machine does not collect running servers across test runs.
    private static func removeOrphans(binaries: URL, runAsPostgres: Bool) {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("ledgerly-pg-") {
            let folder = temporary.appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent(ownerFile), encoding: .utf8),
                  let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                  kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            let data = folder.appendingPathComponent("data").path
            if FileManager.default.fileExists(atPath: data + "/postmaster.pid") {
                let stop = [binaries.appendingPathComponent("pg_ctl").path, "-D", data, "-w", "-t", "30", "-m", "immediate", "stop"]
                let argv = runAsPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + stop : stop
                _ = try? spawnAndWait(argv, outputPath: "/dev/null")
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does
    /// not import: looked up at run time, and skipped where it is missing.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    private static func findBinaries() throws -> URL {
        let base = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
            .compactMap(Int.init)
            .filter { FileManager.default.isExecutableFile(atPath: "\(base)/\($0)/bin/pg_ctl") }
            .sorted()
        guard let newest = versions.last else {
            throw HarnessError.commandFailed("looking for \(base)/<version>/bin/pg_ctl", "no PostgreSQL server here: apt-get install postgresql (deploy/install-deps.sh postgresql)")
        }
        return URL(fileURLWithPath: "\(base)/\(newest)/bin", isDirectory: true)
    }

    /// A port the kernel says is free now (bound to port 0, read back, released). Another process
    /// could take it before the server binds it; the server then fails to start and says so.
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.commandFailed("socket", String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw HarnessError.commandFailed("bind 127.0.0.1:0", String(cString: strerror(errno))) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw HarnessError.commandFailed("getsockname", String(cString: strerror(errno))) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
